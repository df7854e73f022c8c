-- Put an item on the configured user's watch list: POST /ebay/watchlist/230851234561
return insert into ebay.trading.AddToWatchList (ItemID) values ("{itemId}")
  via route '/ebay/watchlist/{itemId}' using method post;
