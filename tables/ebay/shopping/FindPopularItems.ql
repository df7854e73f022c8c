-- Return listings with the most watchers for a category or keyword query.
-- eBay Shopping FindPopularItems: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Columns: apikey, version, siteid, MessageID, CategoryID, CategoryIDExclude, MaxEntries,
--          QueryKeywords
create table ebay.shopping.FindPopularItems
  on select get from "{config.tables.ebay.shopping.gateway}?callname=FindPopularItems&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&CategoryID={20|CategoryID}&CategoryIDExclude={20|CategoryIDExclude}&MaxEntries={MaxEntries}&QueryKeywords={QueryKeywords}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}",
                    MaxEntries = "5"
     using patch 'shopping.py'
     with arrays '..Errors', '..ErrorParameters'
