-- My eBay buying (Trading GetMyeBayBuying): the watch list and the items bid on.
buying = select * from ebay.trading.GetMyeBayBuying where WatchList.Include = "true" and BidList.Include = "true";
return {"watching": "{buying.WatchList.ItemArray.Item}", "bidding": "{buying.BidList.ItemArray.Item}"}
  via route '/ebay/mybuying' using method get;
