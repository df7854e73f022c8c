select * from ebay.shopping.GetMultipleItems where itemId in ("1", 2, ids, "{more}")
