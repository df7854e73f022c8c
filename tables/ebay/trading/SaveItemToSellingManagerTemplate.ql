-- Save an existing listing as a Selling Manager template.
-- eBay Trading SaveItemToSellingManagerTemplate: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, ProductID, TemplateName
create table ebay.trading.SaveItemToSellingManagerTemplate
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SaveItemToSellingManagerTemplate'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SaveItemToSellingManagerTemplateResponse'
     with arrays '..Errors', '..ErrorParameters'
