-- Bid on, buy, or make a best offer on an item.
-- eBay Trading PlaceOffer: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Offer.Action, Offer.MaxBid, Offer.Quantity, Offer.UserConsent, Offer.Message,
--          Offer.BestOfferID, ItemID, BlockOnWarning, AffiliateTrackingDetails.TrackingID,
--          AffiliateTrackingDetails.TrackingPartnerCode,
--          AffiliateTrackingDetails.ApplicationDeviceType,
--          AffiliateTrackingDetails.AffiliateUserID, VariationSpecifics.NameValueList.Name,
--          VariationSpecifics.NameValueList.Value
create table ebay.trading.PlaceOffer
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'PlaceOffer'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'PlaceOfferResponse'
     with arrays '..Errors', '..ErrorParameters', '..AddressAttribute', '..BuyerTaxIdentifier',
                 '..Attribute', '..CharityAffiliationDetail', '..SupportedSite',
                 '..TopRatedProgram', '..RecoupmentPolicyConsent.Site', '..UserSubscription',
                 '..ItemBidDetails', '..Program', '..BidValue'
