-- Return the seller's promotional sales (markdowns).
-- eBay Trading GetPromotionalSaleDetails: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: PromotionalSaleID, PromotionalSaleStatus
create table ebay.trading.GetPromotionalSaleDetails
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetPromotionalSaleDetails'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetPromotionalSaleDetailsResponse'
     with arrays 'PromotionalSaleDetails.PromotionalSale', '..Errors', '..ErrorParameters',
                 '..ItemID'
