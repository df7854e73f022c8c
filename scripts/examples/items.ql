-- The title and price of each of the given Browse items, asked for all at once (fan-out).
--   qlgate run scripts/examples/items.ql --var 'ids=["v1|230851299001|0","v1|230851299002|0"]'
return select itemId as id, title as title, price.value as price
       from ebay.buy.browse.getItem where item_id in ("{^ids}");
