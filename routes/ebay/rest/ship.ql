-- Ship an order, all its line items: POST /ebay/orders/{orderId}/shipments {"carrier": "USPS", "tracking": "9400…"}
order = select * from ebay.sell.fulfillment.getOrder where orderId = "{orderId}";
lines = "{order.lineItems}";
shipping = select lineItemId as lineItemId, quantity as quantity from lines;
insert into ebay.sell.fulfillment.createShippingFulfillment
       (orderId, lineItems, shippingCarrierCode, trackingNumber)
       values ("{orderId}", "{shipping}", "{carrier}", "{tracking}");
return {"orderId": "{orderId}", "carrier": "{carrier}", "tracking": "{tracking}", "lineItems": "{shipping}"}
  via route '/ebay/orders/{orderId}/shipments' using method post;
