-- Return selected seller preferences.
-- eBay Trading GetUserPreferences: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ShowBidderNoticePreferences, ShowCombinedPaymentPreferences,
--          ShowSellerPaymentPreferences, ShowEndOfAuctionEmailPreferences,
--          ShowSellerFavoriteItemPreferences, ShowEmailShipmentTrackingNumberPreference,
--          ShowRequiredShipPhoneNumberPreference, ShowSellerExcludeShipToLocationPreference,
--          ShowUnpaidItemAssistancePreference, ShowPurchaseReminderEmailPreferences,
--          ShowUnpaidItemAssistanceExclusionList, ShowSellerProfilePreferences
create table ebay.trading.GetUserPreferences
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetUserPreferences'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetUserPreferencesResponse'
     with arrays '..Errors', '..ErrorParameters', '..AddressAttribute', '..FavoriteItemID',
                 '..ExcludedUser', '..ExcludeShipToLocation', '..SupportedSellerProfile',
                 '..eBayPLUSPreference'
