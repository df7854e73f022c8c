-- A Jinja body template for JSON: values are escaped for JSON strings, and dotted
-- parameter names nest (shipping.to → params.shipping.to).
-- verb: update
-- values: {"id": "77", "note": "say \"hi\"\nsoon", "shipping.to": "Oslo", "shipping.days": 3}
create table shop.order
  on update put to "{config.base}/orders/{^id}"
     using bodyTemplate 'files/order.json.j2' type 'application/json'
