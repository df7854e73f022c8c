-- My eBay buying (Trading GetMyeBayBuying): the watch list and the items bid on, each always
-- an array (empty when the list is).
buying = select * from ebay.trading.GetMyeBayBuying where WatchList.Include = "true" and BidList.Include = "true";
watching = "{buying.WatchList.ItemArray.Item}" || [];
bidding = "{buying.BidList.ItemArray.Item}" || [];
return {"watching": "{watching}", "bidding": "{bidding}"}
  via route '/ebay/mybuying' using method get;
