-- Seller: ship an order — every line item of it, with one carrier and tracking number.
-- Orders live in the emulator (or eBay) you run it against; each `qlgate run` without --config
-- starts a fresh emulator with none, so start one that stays and buy something there first:
--   qlgate sandbox --port 8642 --control-token demo --write-config /tmp/emulator.json &
--   qlgate run scripts/ebay/rest/list-an-item.ql --config /tmp/emulator.json --var sku=S-1 --var 'title=A lens' --var price=20
--   curl -X POST -H 'X-Sandbox-Token: demo' -d '{"itemId": "110096039601"}' http://127.0.0.1:8642/_sandbox/purchase
--   qlgate run scripts/ebay/rest/ship-an-order.ql --config /tmp/emulator.json --var orderId=01-10001-20001 --var carrier=USPS --var tracking=EZ1000000001
order = select * from ebay.sell.fulfillment.getOrder where orderId = "{orderId}";
lines = "{order.lineItems}";
shipping = select lineItemId as lineItemId, quantity as quantity from lines;
insert into ebay.sell.fulfillment.createShippingFulfillment
           (orderId, lineItems, shippingCarrierCode, trackingNumber)
           values ("{orderId}", "{shipping}", "{carrier}", "{tracking}");
return {"orderId": "{orderId}", "carrier": "{carrier}", "tracking": "{tracking}", "lineItems": "{shipping}"};
