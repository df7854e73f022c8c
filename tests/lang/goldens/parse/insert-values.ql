insert into ebay.trading.AddToWatchList (ItemID, Note) values ("{^itemId}", 'watching');
