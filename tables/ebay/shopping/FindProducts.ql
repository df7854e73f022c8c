-- Search stock catalog products (descriptions and item specifics) and optionally matching listings.
-- eBay Shopping FindProducts: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Columns: apikey, siteid, MessageID, AvailableItemsOnly, CategoryID, DomainName,
--          HideDuplicateItems, IncludeSelector, MaxEntries, PageNumber, pidtype, pidValue,
--          ProductSort, QueryKeywords, SortOrder
create table ebay.shopping.FindProducts
  on select get from "{config.tables.ebay.shopping.gateway}?callname=FindProducts&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&AvailableItemsOnly={AvailableItemsOnly}&CategoryID={CategoryID}&DomainName={20|DomainName}&HideDuplicateItems={HideDuplicateItems}&IncludeSelector={IncludeSelector}&MaxEntries={MaxEntries}&PageNumber={PageNumber}&ProductID.type={pidtype}&ProductID.Value={pidValue}&ProductSort={ProductSort}&QueryKeywords={QueryKeywords}&SortOrder={SortOrder}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}",
                    MaxEntries = "5"
     using patch 'shopping.py'
     with arrays 'Product', '..Errors', '..ErrorParameters', '..Domain', '..ProductID',
                 '..NameValueList', '..NameValueList.Value'
