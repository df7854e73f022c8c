-- Take an item off the configured user's watch list: DELETE /ebay/watchlist/230851234561
return delete from ebay.trading.RemoveFromWatchList where ItemID = "{itemId}"
  via route '/ebay/watchlist/{itemId}' using method delete;
