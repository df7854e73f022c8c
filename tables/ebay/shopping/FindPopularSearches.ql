-- Return popular and related search keywords for categories or a query.
-- eBay Shopping FindPopularSearches: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Columns: apikey, siteid, MessageID, CategoryID, IncludChildCategories, MaxKeywords,
--          MaxResultsPerPage, PageNumber, QueryKeywords
create table ebay.shopping.FindPopularSearches
  on select get from "{config.tables.ebay.shopping.gateway}?callname=FindPopularSearches&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&CategoryID={20|CategoryID}&IncludChildCategories={IncludChildCategories}&MaxKeywords={MaxKeywords}&MaxResultsPerPage={MaxResultsPerPage}&PageNumber={PageNumber}&QueryKeywords={1000|QueryKeywords}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}"
     using patch 'shopping.py'
     with arrays '..Errors', '..ErrorParameters'
