-- Return product reviews and buying guides by product, category or user.
-- eBay Shopping FindReviewsAndGuides: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Columns: apikey, siteid, MessageID, CategoryID, MaxResultsPerPage, PageNumber, pidtype,
--          pidValue, ReviewSort, SortOrder, UserID
create table ebay.shopping.FindReviewsAndGuides
  on select get from "{config.tables.ebay.shopping.gateway}?callname=FindReviewsAndGuides&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&CategoryID={100|CategoryID}&MaxResultsPerPage={MaxResultsPerPage}&PageNumber={PageNumber}&ProductID.type={pidtype}&ProductID.Value={pidValue}&ReviewSort={ReviewSort}&SortOrder={SortOrder}&UserID={UserID}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}"
     using patch 'shopping.py'
     with arrays '..Errors', '..ErrorParameters'
