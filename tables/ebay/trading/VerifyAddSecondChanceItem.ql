-- Validate a second-chance offer without making it.
-- eBay Trading VerifyAddSecondChanceItem: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: RecipientBidderUserID, BuyItNowPrice, Duration, ItemID, SellerMessage
create table ebay.trading.VerifyAddSecondChanceItem
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'VerifyAddSecondChanceItem'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'VerifyAddSecondChanceItemResponse'
     with arrays '..Errors', '..ErrorParameters'
