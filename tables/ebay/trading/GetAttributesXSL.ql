-- Return the XSL file used to render attribute forms (legacy).
-- eBay Trading GetAttributesXSL: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: FileName, FileVersion
create table ebay.trading.GetAttributesXSL
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetAttributesXSL'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetAttributesXSLResponse'
     with arrays 'XSLFile', '..Errors', '..ErrorParameters'
