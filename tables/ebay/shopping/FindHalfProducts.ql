-- Search Half.com catalog products and their Half.com listings.
-- eBay Shopping FindHalfProducts: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Columns: apikey, siteid, MessageID, AvailableItemsOnly, DomainName, IncludeSelector, MaxEntries,
--          PageNumber, pidtype, pidValue, ProductSort, QueryKeywords, SellerID, SortOrder
create table ebay.shopping.FindHalfProducts
  on select get from "{config.tables.ebay.shopping.gateway}?callname=FindHalfProducts&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&AvailableItemsOnly={AvailableItemsOnly}&DomainName={20|DomainName}&IncludeSelector={IncludeSelector}&MaxEntries={MaxEntries}&PageNumber={PageNumber}&ProductID.type={pidtype}&ProductID.Value={pidValue}&ProductSort={ProductSort}&QueryKeywords={QueryKeywords}&SellerID={SellerID}&SortOrder={SortOrder}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}",
                    MaxEntries = "5"
     using patch 'shopping.py'
     with arrays '..Errors', '..ErrorParameters'
