-- Item details from the Browse API: /ebay/browse/items/v1|230851299001|0 (a Browse item id)
return select * from ebay.buy.browse.getItem where item_id = "{itemId}"
  via route '/ebay/browse/items/{itemId}' using method get;
