return delete from ebay.trading.RemoveFromWatchList where ItemID = "{^ids}" and note in ("a", "b");
