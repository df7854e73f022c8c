-- Item details (Shopping GetSingleItem): /ebay/items/230851234561?include=Details,Description
item = select Item from ebay.shopping.GetSingleItem where ItemID = "{itemId}" and IncludeSelector = "{include}";
return "{item}"
  via route '/ebay/items/{itemId}?include={include}' with optional params using method get;
