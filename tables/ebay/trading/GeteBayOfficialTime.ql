-- Return the official eBay time; a connectivity/credentials check.
-- eBay Trading GeteBayOfficialTime: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
create table ebay.trading.GeteBayOfficialTime
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GeteBayOfficialTime'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GeteBayOfficialTimeResponse'
     with arrays '..Errors', '..ErrorParameters'
