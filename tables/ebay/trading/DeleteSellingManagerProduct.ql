-- Delete a Selling Manager product.
-- eBay Trading DeleteSellingManagerProduct: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ProductID
create table ebay.trading.DeleteSellingManagerProduct
  on delete post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'DeleteSellingManagerProduct'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'DeleteSellingManagerProductResponse'
     with arrays '..Errors', '..ErrorParameters'
