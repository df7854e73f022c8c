-- Return items a user bid on, with bidding details.
-- eBay Trading GetBidderList: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ActiveItemsOnly, EndTimeFrom, EndTimeTo, UserID, GranularityLevel
create table ebay.trading.GetBidderList
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetBidderList'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetBidderListResponse'
     with arrays '..Errors', '..ErrorParameters'
