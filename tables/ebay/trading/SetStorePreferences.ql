-- Change eBay Store preferences.
-- eBay Trading SetStorePreferences: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: StorePreferences.VacationPreferences.OnVacation,
--          StorePreferences.VacationPreferences.ReturnDate,
--          StorePreferences.VacationPreferences.MessageItem,
--          StorePreferences.VacationPreferences.MessageStore,
--          StorePreferences.VacationPreferences.DisplayMessageStoreCustomText,
--          StorePreferences.VacationPreferences.MessageStoreCustomText
create table ebay.trading.SetStorePreferences
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetStorePreferences'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetStorePreferencesResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetStorePreferences'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetStorePreferencesResponse'
     with arrays '..Errors', '..ErrorParameters'
