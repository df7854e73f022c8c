-- Change a Selling Manager template.
-- eBay Trading ReviseSellingManagerTemplate: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: SaleTemplateID, ProductID, SaleTemplateName, Item, DeletedField, VerifyOnly
create table ebay.trading.ReviseSellingManagerTemplate
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseSellingManagerTemplate'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseSellingManagerTemplateResponse'
     with arrays '..Errors', '..ErrorParameters'
