-- Change an active listing.
-- eBay Trading ReviseItem: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Item.ApplicationData, Item.AutoPay, Item.PaymentDetails.HoursToDeposit,
--          Item.PaymentDetails.DaysToFullPayment, Item.PaymentDetails.DepositAmount,
--          Item.PaymentDetails.DepositAmount.currencyID, Item.PaymentDetails.DepositType,
--          Item.MotorsGermanySearchable, Item.BuyItNowPrice, Item.BuyItNowPrice.currencyID,
--          Item.CategoryMappingAllowed, Item.Charity, Item.Country, Item.Description,
--          Item.DescriptionReviseMode, Item.HitCounter, Item.ItemID,
--          Item.ListingDetails.MinimumBestOfferPrice,
--          Item.ListingDetails.MinimumBestOfferPrice.currencyID,
--          Item.ListingDetails.BestOfferAutoAcceptPrice,
--          Item.ListingDetails.BestOfferAutoAcceptPrice.currencyID, Item.ListingDesigner.LayoutID,
--          Item.ListingDesigner.OptimalPictureSize, Item.ListingDesigner.ThemeID,
--          Item.ListingDuration, Item.ListingEnhancement, Item.ListingType, Item.Location,
--          Item.LotSize, Item.PaymentMethods, Item.PayPalEmailAddress,
--          Item.PrimaryCategory.CategoryID, Item.ProductListingDetails.IncludeStockPhotoURL,
--          Item.ProductListingDetails.UseStockPhotoURLAsGallery,
--          Item.ProductListingDetails.ProductReferenceID,
--          Item.ProductListingDetails.ReturnSearchResultOnDuplicates,
--          Item.ProductListingDetails.ISBN, Item.ProductListingDetails.UPC,
--          Item.ProductListingDetails.EAN, Item.ProductListingDetails.BrandMPN.Brand,
--          … (159 more in schema.json)
create table ebay.trading.ReviseItem
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseItem',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseItemResponse'
     with arrays 'Fees.Fee', '..Errors', '..ErrorParameters', '..DiscountReason',
                 '..ProductSuggestion', '..Recommendation', '..Recommendation.Value', '..Metadata',
                 '..Metadata.Value'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseItem',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseItemResponse'
     with arrays 'Fees.Fee', '..Errors', '..ErrorParameters', '..DiscountReason',
                 '..ProductSuggestion', '..Recommendation', '..Recommendation.Value', '..Metadata',
                 '..Metadata.Value'
