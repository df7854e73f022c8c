-- Seller: ship an order — every line item of it, with one carrier and tracking number.
--   qlgate run scripts/ebay/rest/ship-an-order.ql --var orderId=01-10001-20001 --var carrier=USPS --var tracking=9400100000000000000000
order = select * from ebay.sell.fulfillment.getOrder where orderId = "{orderId}";
lines = "{order.lineItems}";
shipping = select lineItemId as lineItemId, quantity as quantity from lines;
insert into ebay.sell.fulfillment.createShippingFulfillment
           (orderId, lineItems, shippingCarrierCode, trackingNumber)
           values ("{orderId}", "{shipping}", "{carrier}", "{tracking}");
return {"orderId": "{orderId}", "carrier": "{carrier}", "tracking": "{tracking}", "lineItems": "{shipping}"};
