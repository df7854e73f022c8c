-- Validate an AddFixedPriceItem request and return fees without listing.
-- eBay Trading VerifyAddFixedPriceItem: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Item
create table ebay.trading.VerifyAddFixedPriceItem
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'VerifyAddFixedPriceItem'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'VerifyAddFixedPriceItemResponse'
     with arrays '..Errors', '..ErrorParameters'
