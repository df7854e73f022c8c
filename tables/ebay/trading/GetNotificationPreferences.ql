-- Return platform notification preferences.
-- eBay Trading GetNotificationPreferences: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: PreferenceLevel
create table ebay.trading.GetNotificationPreferences
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetNotificationPreferences'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetNotificationPreferencesResponse'
     with arrays 'UserDeliveryPreferenceArray.NotificationEnable', '..Errors', '..ErrorParameters',
                 '..DeliveryURLDetails', '..SummarySchedule', '..EventProperty'
