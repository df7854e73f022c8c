-- Delete a Selling Manager listing template.
-- eBay Trading DeleteSellingManagerTemplate: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: SaleTemplateID
create table ebay.trading.DeleteSellingManagerTemplate
  on delete post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'DeleteSellingManagerTemplate'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'DeleteSellingManagerTemplateResponse'
     with arrays '..Errors', '..ErrorParameters'
