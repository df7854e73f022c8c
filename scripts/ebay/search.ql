-- Search eBay by keywords and show the first five hits, offline against the built-in emulator.
--   qlgate run scripts/ebay/search.ql --var keywords=iphone
result = select * from ebay.finding.findItemsByKeywords where keywords = "{keywords}" limit 5;
items = "{result.searchResult.item}";
return select itemId as id, title as title, sellingStatus.currentPrice.$t as price,
              sellingStatus.currentPrice.currencyId as currency from items;
