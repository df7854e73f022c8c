-- Change selected seller preferences.
-- eBay Trading SetUserPreferences: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: BidderNoticePreferences.UnsuccessfulBidderNoticeIncludeMyItems,
--          CombinedPaymentPreferences.CombinedPaymentOption,
--          SellerPaymentPreferences.AlwaysUseThisPaymentAddress,
--          SellerPaymentPreferences.DisplayPayNowButton, SellerPaymentPreferences.PayPalPreferred,
--          SellerPaymentPreferences.DefaultPayPalEmailAddress,
--          SellerPaymentPreferences.PayPalAlwaysOn,
--          SellerPaymentPreferences.SellerPaymentAddress.Country,
--          SellerPaymentPreferences.UPSRateOption, SellerPaymentPreferences.FedExRateOption,
--          SellerPaymentPreferences.USPSRateOption, SellerFavoriteItemPreferences.SearchKeywords,
--          SellerFavoriteItemPreferences.StoreCategoryID,
--          SellerFavoriteItemPreferences.ListingType,
--          SellerFavoriteItemPreferences.SearchSortOrder, SellerFavoriteItemPreferences.MinPrice,
--          SellerFavoriteItemPreferences.MaxPrice, SellerFavoriteItemPreferences.FavoriteItemID,
--          EndOfAuctionEmailPreferences.TemplateText, EndOfAuctionEmailPreferences.LogoURL,
--          EndOfAuctionEmailPreferences.LogoType, EndOfAuctionEmailPreferences.EmailCustomized,
--          EndOfAuctionEmailPreferences.TextCustomized,
--          EndOfAuctionEmailPreferences.LogoCustomized, EmailShipmentTrackingNumberPreference,
--          RequiredShipPhoneNumberPreference,
--          UnpaidItemAssistancePreferences.DelayBeforeOpeningDispute,
--          UnpaidItemAssistancePreferences.OptInStatus,
--          UnpaidItemAssistancePreferences.AutoRelist,
--          UnpaidItemAssistancePreferences.RemoveAllExcludedUsers,
--          UnpaidItemAssistancePreferences.ExcludedUser,
--          UnpaidItemAssistancePreferences.AutoOptDonationRefund,
--          PurchaseReminderEmailPreferences,
--          PurchaseReminderEmailPreferences.PurchaseReminderEmailPreferences
create table ebay.trading.SetUserPreferences
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetUserPreferences'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetUserPreferencesResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetUserPreferences'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetUserPreferencesResponse'
     with arrays '..Errors', '..ErrorParameters'
