-- The 2012 post "ql.io APIs for eBay Marketplaces" (eBay Tech Blog, ebaytechblog.com, Sept 2012),
-- as first published: scenario 1, watch list add/remove (buyer). Statements as in the post (only the unterminated
-- {itemid closed); the XML bodies are the post's sample data (ql.io-ebay-mp-apis test/inserttest.js).
itemid = select searchResult.item[0].itemId from finding.findItemsByKeywords where keywords = 'camera';

insert into trading.AddToWatchList (ItemID) values ("{itemid}");

return delete from trading.RemoveFromWatchList where ItemID in ("{itemid}");
