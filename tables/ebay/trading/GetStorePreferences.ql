-- Return eBay Store preferences (vacation settings).
-- eBay Trading GetStorePreferences: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
create table ebay.trading.GetStorePreferences
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetStorePreferences'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetStorePreferencesResponse'
     with arrays '..Errors', '..ErrorParameters'
