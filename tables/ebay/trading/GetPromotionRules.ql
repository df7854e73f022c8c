-- Return cross-promotion rules (legacy).
-- eBay Trading GetPromotionRules: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, StoreCategoryID, PromotionMethod
create table ebay.trading.GetPromotionRules
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetPromotionRules'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetPromotionRulesResponse'
     with arrays '..Errors', '..ErrorParameters', '..PromotionRule'
