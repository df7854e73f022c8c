-- List a new item (auction, fixed price, classified ad) on an eBay site.
-- eBay Trading AddItem: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Item.ApplicationData, Item.AutoPay, Item.PaymentDetails.HoursToDeposit,
--          Item.PaymentDetails.DaysToFullPayment, Item.PaymentDetails.DepositAmount,
--          Item.PaymentDetails.DepositAmount.currencyID, Item.PaymentDetails.DepositType,
--          Item.MotorsGermanySearchable, Item.BuyItNowPrice, Item.BuyItNowPrice.currencyID,
--          Item.CategoryMappingAllowed, Item.Charity.CharityNumber, Item.Charity.DonationPercent,
--          Item.Charity.CharityID, Item.Country, Item.Currency, Item.Description, Item.HitCounter,
--          Item.ListingDetails.MinimumBestOfferPrice,
--          Item.ListingDetails.MinimumBestOfferPrice.currencyID,
--          Item.ListingDetails.LocalListingDistance, Item.ListingDetails.BestOfferAutoAcceptPrice,
--          Item.ListingDetails.BestOfferAutoAcceptPrice.currencyID, Item.ListingDesigner.LayoutID,
--          Item.ListingDesigner.OptimalPictureSize, Item.ListingDesigner.ThemeID,
--          Item.ListingDuration, Item.ListingEnhancement, Item.ListingType, Item.Location,
--          Item.LotSize, Item.PaymentMethods, Item.PayPalEmailAddress,
--          Item.PrimaryCategory.CategoryID, Item.ProductListingDetails.IncludeStockPhotoURL,
--          Item.ProductListingDetails.UseStockPhotoURLAsGallery,
--          Item.ProductListingDetails.ProductReferenceID,
--          Item.ProductListingDetails.ReturnSearchResultOnDuplicates,
--          Item.ProductListingDetails.ISBN, Item.ProductListingDetails.UPC,
--          … (163 more in schema.json)
create table ebay.trading.AddItem
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddItem',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddItemResponse'
     with arrays 'Fees.Fee', '..Errors', '..ErrorParameters', '..DiscountReason',
                 '..ProductSuggestion', '..Recommendation', '..Recommendation.Value', '..Metadata',
                 '..Metadata.Value'
