-- List up to five items in one call.
-- eBay Trading AddItems: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: AddItemRequestContainer.Item.ApplicationData, AddItemRequestContainer.Item.AutoPay,
--          AddItemRequestContainer.Item.PaymentDetails.HoursToDeposit,
--          AddItemRequestContainer.Item.PaymentDetails.DaysToFullPayment,
--          AddItemRequestContainer.Item.PaymentDetails.DepositAmount,
--          AddItemRequestContainer.Item.PaymentDetails.DepositAmount.currencyID,
--          AddItemRequestContainer.Item.PaymentDetails.DepositType,
--          AddItemRequestContainer.Item.MotorsGermanySearchable,
--          AddItemRequestContainer.Item.BuyItNowPrice,
--          AddItemRequestContainer.Item.BuyItNowPrice.currencyID,
--          AddItemRequestContainer.Item.CategoryMappingAllowed,
--          AddItemRequestContainer.Item.Charity.CharityNumber,
--          AddItemRequestContainer.Item.Charity.DonationPercent,
--          AddItemRequestContainer.Item.Charity.CharityID, AddItemRequestContainer.Item.Country,
--          AddItemRequestContainer.Item.Currency, AddItemRequestContainer.Item.Description,
--          AddItemRequestContainer.Item.HitCounter,
--          AddItemRequestContainer.Item.ListingDetails.MinimumBestOfferPrice,
--          AddItemRequestContainer.Item.ListingDetails.MinimumBestOfferPrice.currencyID,
--          AddItemRequestContainer.Item.ListingDetails.LocalListingDistance,
--          AddItemRequestContainer.Item.ListingDetails.BestOfferAutoAcceptPrice,
--          AddItemRequestContainer.Item.ListingDetails.BestOfferAutoAcceptPrice.currencyID,
--          AddItemRequestContainer.Item.ListingDesigner.LayoutID,
--          AddItemRequestContainer.Item.ListingDesigner.OptimalPictureSize,
--          AddItemRequestContainer.Item.ListingDesigner.ThemeID,
--          AddItemRequestContainer.Item.ListingDuration,
--          AddItemRequestContainer.Item.ListingEnhancement,
--          AddItemRequestContainer.Item.ListingType, AddItemRequestContainer.Item.Location,
--          AddItemRequestContainer.Item.LotSize, AddItemRequestContainer.Item.PaymentMethods,
--          AddItemRequestContainer.Item.PayPalEmailAddress,
--          AddItemRequestContainer.Item.PrimaryCategory.CategoryID,
--          AddItemRequestContainer.Item.ProductListingDetails.IncludeStockPhotoURL,
--          AddItemRequestContainer.Item.ProductListingDetails.UseStockPhotoURLAsGallery,
--          AddItemRequestContainer.Item.ProductListingDetails.ProductReferenceID,
--          AddItemRequestContainer.Item.ProductListingDetails.ReturnSearchResultOnDuplicates,
--          AddItemRequestContainer.Item.ProductListingDetails.ISBN,
--          AddItemRequestContainer.Item.ProductListingDetails.UPC, … (155 more in schema.json)
create table ebay.trading.AddItems
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddItems'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddItemsResponse'
     with arrays 'AddItemResponseContainer', '..Errors', '..ErrorParameters', '..Fees.Fee',
                 '..DiscountReason', '..Recommendation', '..Recommendation.Value', '..Metadata',
                 '..Metadata.Value'
