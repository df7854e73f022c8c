-- Seller makes a second-chance offer to a non-winning bidder.
-- eBay Trading AddSecondChanceItem: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: RecipientBidderUserID, BuyItNowPrice, Duration, ItemID, SellerMessage
create table ebay.trading.AddSecondChanceItem
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddSecondChanceItem'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddSecondChanceItemResponse'
     with arrays '..Errors', '..ErrorParameters'
