-- Add one or more items (or item variations) to the user's watch list.
-- eBay Trading AddToWatchList: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Example: insert into ebay.trading.AddToWatchList (ItemID) values ("230851234561")
-- Columns: ItemID, VariationKey.ItemID, VariationKey.VariationSpecifics.NameValueList.Name,
--          VariationKey.VariationSpecifics.NameValueList.Value
create table ebay.trading.AddToWatchList
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddToWatchList'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddToWatchListResponse'
     with arrays '..Errors', '..ErrorParameters'
