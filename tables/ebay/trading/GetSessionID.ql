-- Start an Auth'n'Auth sign-in flow and return a session ID.
-- eBay Trading GetSessionID: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: RuName
create table ebay.trading.GetSessionID
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSessionID'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSessionIDResponse'
     with arrays '..Errors', '..ErrorParameters'
