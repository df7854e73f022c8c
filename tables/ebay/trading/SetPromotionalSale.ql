-- Create, change or delete a promotional sale.
-- eBay Trading SetPromotionalSale: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Action, PromotionalSaleDetails.PromotionalSaleID,
--          PromotionalSaleDetails.PromotionalSaleName, PromotionalSaleDetails.DiscountType,
--          PromotionalSaleDetails.DiscountValue, PromotionalSaleDetails.PromotionalSaleStartTime,
--          PromotionalSaleDetails.PromotionalSaleEndTime,
--          PromotionalSaleDetails.PromotionalSaleType
create table ebay.trading.SetPromotionalSale
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetPromotionalSale'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetPromotionalSaleResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetPromotionalSale'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetPromotionalSaleResponse'
     with arrays '..Errors', '..ErrorParameters'
