-- Create or change shipping discount profiles.
-- eBay Trading SetShippingDiscountProfiles: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CurrencyID, CombinedDuration, ModifyActionCode, FlatShippingDiscount.DiscountName,
--          FlatShippingDiscount.DiscountProfile.DiscountProfileID,
--          FlatShippingDiscount.DiscountProfile.DiscountProfileName,
--          FlatShippingDiscount.DiscountProfile.EachAdditionalAmount,
--          FlatShippingDiscount.DiscountProfile.EachAdditionalAmount.currencyID,
--          FlatShippingDiscount.DiscountProfile.EachAdditionalAmountOff,
--          FlatShippingDiscount.DiscountProfile.EachAdditionalAmountOff.currencyID,
--          FlatShippingDiscount.DiscountProfile.EachAdditionalPercentOff,
--          CalculatedShippingDiscount.DiscountName,
--          CalculatedShippingDiscount.DiscountProfile.DiscountProfileID,
--          CalculatedShippingDiscount.DiscountProfile.DiscountProfileName,
--          CalculatedShippingDiscount.DiscountProfile.WeightOff,
--          CalculatedShippingDiscount.DiscountProfile.MappedDiscountProfileID,
--          CalculatedHandlingDiscount.DiscountName,
--          CalculatedHandlingDiscount.OrderHandlingAmount,
--          CalculatedHandlingDiscount.OrderHandlingAmount.currencyID,
--          CalculatedHandlingDiscount.EachAdditionalAmount,
--          CalculatedHandlingDiscount.EachAdditionalAmount.currencyID,
--          CalculatedHandlingDiscount.EachAdditionalOffAmount,
--          CalculatedHandlingDiscount.EachAdditionalOffAmount.currencyID,
--          CalculatedHandlingDiscount.EachAdditionalPercentOff,
--          PromotionalShippingDiscountDetails.DiscountName,
--          PromotionalShippingDiscountDetails.ShippingCost,
--          PromotionalShippingDiscountDetails.ShippingCost.currencyID,
--          PromotionalShippingDiscountDetails.OrderAmount,
--          PromotionalShippingDiscountDetails.OrderAmount.currencyID,
--          PromotionalShippingDiscountDetails.ItemCount
create table ebay.trading.SetShippingDiscountProfiles
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetShippingDiscountProfiles'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetShippingDiscountProfilesResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetShippingDiscountProfiles'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetShippingDiscountProfilesResponse'
     with arrays '..Errors', '..ErrorParameters'
