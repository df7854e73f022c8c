-- Return basic data about a category and optionally its children.
-- eBay Shopping GetCategoryInfo: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Columns: apikey, version, siteid, MessageID, CategoryID, IncludeSelector
create table ebay.shopping.GetCategoryInfo
  on select get from "{config.tables.ebay.shopping.gateway}?callname=GetCategoryInfo&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&CategoryID={^CategoryID}&IncludeSelector={IncludeSelector}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}"
     using patch 'shopping.py'
     with arrays 'CategoryArray.Category', '..Errors', '..ErrorParameters'
