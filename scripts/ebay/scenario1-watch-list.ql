-- Scenario 1: find listings, put the first one on the watch list, take it off again.
ids = select searchResult.item[0].itemId from ebay.finding.findItemsByKeywords
      where keywords = "iphone5" and paginationInput.entriesPerPage = 6;

insert into ebay.trading.AddToWatchList (ItemID) values ("{^ids}");

-- Writes run in the order written (LANGUAGE.md §7.1): the delete starts only after the
-- insert has finished. No artificial reference is needed.
return delete from ebay.trading.RemoveFromWatchList where ItemID = "{^ids}";
