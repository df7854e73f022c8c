-- Change a fixed-price listing (price, quantity, details).
-- eBay Trading ReviseFixedPriceItem: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Item.ApplicationData, Item.AutoPay, Item.CategoryMappingAllowed, Item.Country,
--          Item.Description, Item.DescriptionReviseMode, Item.HitCounter, Item.ItemID,
--          Item.ListingDesigner.LayoutID, Item.ListingDesigner.OptimalPictureSize,
--          Item.ListingDesigner.ThemeID, Item.ListingDuration, Item.ListingEnhancement,
--          Item.Location, Item.PaymentMethods, Item.PayPalEmailAddress,
--          Item.PrimaryCategory.CategoryID, Item.ProductListingDetails.IncludeStockPhotoURL,
--          Item.ProductListingDetails.UseStockPhotoURLAsGallery,
--          Item.ProductListingDetails.ProductReferenceID,
--          Item.ProductListingDetails.ReturnSearchResultOnDuplicates,
--          Item.ProductListingDetails.ISBN, Item.ProductListingDetails.UPC,
--          Item.ProductListingDetails.EAN, Item.ProductListingDetails.BrandMPN.Brand,
--          Item.ProductListingDetails.BrandMPN.MPN,
--          Item.ProductListingDetails.TicketListingDetails.EventTitle,
--          Item.ProductListingDetails.TicketListingDetails.Venue,
--          Item.ProductListingDetails.TicketListingDetails.PrintedDate,
--          Item.ProductListingDetails.TicketListingDetails.PrintedTime,
--          Item.ProductListingDetails.UseFirstProduct, Item.Quantity, Item.PrivateNotes,
--          Item.ScheduleTime, Item.SecondaryCategory.CategoryID,
--          Item.ShippingDetails.GlobalShipping,
--          Item.ShippingDetails.CalculatedShippingRate.OriginatingPostalCode,
--          Item.ShippingDetails.CalculatedShippingRate.MeasurementUnit,
--          Item.ShippingDetails.CalculatedShippingRate.PackagingHandlingCosts,
--          Item.ShippingDetails.CalculatedShippingRate.ShippingIrregular,
--          … (109 more in schema.json)
create table ebay.trading.ReviseFixedPriceItem
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseFixedPriceItem'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseFixedPriceItemResponse'
     with arrays 'Fees.Fee', '..Errors', '..ErrorParameters', '..DiscountReason',
                 '..ProductSuggestion', '..Recommendation', '..Recommendation.Value', '..Metadata',
                 '..Metadata.Value'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseFixedPriceItem'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseFixedPriceItemResponse'
     with arrays 'Fees.Fee', '..Errors', '..ErrorParameters', '..DiscountReason',
                 '..ProductSuggestion', '..Recommendation', '..Recommendation.Value', '..Metadata',
                 '..Metadata.Value'
