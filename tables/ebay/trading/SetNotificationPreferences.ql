-- Set platform notification preferences.
-- eBay Trading SetNotificationPreferences: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ApplicationDeliveryPreferences.ApplicationURL,
--          ApplicationDeliveryPreferences.ApplicationEnable,
--          ApplicationDeliveryPreferences.AlertEmail, ApplicationDeliveryPreferences.AlertEnable,
--          ApplicationDeliveryPreferences.DeviceType,
--          ApplicationDeliveryPreferences.PayloadVersion,
--          ApplicationDeliveryPreferences.DeliveryURLDetails.DeliveryURLName,
--          ApplicationDeliveryPreferences.DeliveryURLDetails.DeliveryURL,
--          ApplicationDeliveryPreferences.DeliveryURLDetails.Status,
--          UserDeliveryPreferenceArray.NotificationEnable.EventType,
--          UserDeliveryPreferenceArray.NotificationEnable.EventEnable,
--          UserData.SMSSubscription.SMSPhone, UserData.SMSSubscription.UserStatus,
--          UserData.SMSSubscription.CarrierID, UserData.SMSSubscription.ErrorCode,
--          UserData.SMSSubscription.ItemToUnsubscribe, UserData.SummarySchedule.EventType,
--          UserData.SummarySchedule.SummaryPeriod, UserData.SummarySchedule.Frequency,
--          UserData.ExternalUserData, EventProperty.EventType, EventProperty.Name,
--          EventProperty.Value, DeliveryURLName
create table ebay.trading.SetNotificationPreferences
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetNotificationPreferences'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetNotificationPreferencesResponse'
     with arrays '..Errors', '..ErrorParameters'
