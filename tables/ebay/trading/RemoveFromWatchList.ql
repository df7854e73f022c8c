-- Remove items (or all items) from the user's watch list.
-- eBay Trading RemoveFromWatchList: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, RemoveAllItems, VariationKey.ItemID,
--          VariationKey.VariationSpecifics.NameValueList.Name,
--          VariationKey.VariationSpecifics.NameValueList.Value
create table ebay.trading.RemoveFromWatchList
  on delete post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'RemoveFromWatchList'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'RemoveFromWatchListResponse'
     with arrays '..Errors', '..ErrorParameters'
