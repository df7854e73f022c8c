-- Create offer
-- POST /offer (operation createOffer).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through createOffer.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: insert into ebay.sell.inventory.createOffer (sku, marketplaceId, format, availableQuantity, categoryId, pricingSummary.price.value, pricingSummary.price.currency) values ("QL-CAM-1", "EBAY_US", "FIXED_PRICE", 3, "31388", "99.00", "USD")
-- Columns: contentLanguage (header Content-Language), availableQuantity, categoryId,
--          charity.charityId, charity.donationPercentage,
--          extendedProducerResponsibility.ecoParticipationFee.currency,
--          extendedProducerResponsibility.ecoParticipationFee.value,
--          extendedProducerResponsibility.producerProductId,
--          extendedProducerResponsibility.productDocumentationId,
--          extendedProducerResponsibility.productPackageId,
--          extendedProducerResponsibility.shipmentPackageId, format, hideBuyerDetails,
--          includeCatalogProductDetails, listingDescription, listingDuration,
--          listingPolicies.bestOfferTerms.autoAcceptPrice.currency,
--          listingPolicies.bestOfferTerms.autoAcceptPrice.value,
--          listingPolicies.bestOfferTerms.autoDeclinePrice.currency,
--          listingPolicies.bestOfferTerms.autoDeclinePrice.value,
--          listingPolicies.bestOfferTerms.bestOfferEnabled, listingPolicies.eBayPlusIfEligible,
--          listingPolicies.fulfillmentPolicyId, listingPolicies.paymentPolicyId,
--          listingPolicies.productCompliancePolicyIds,
--          listingPolicies.regionalProductCompliancePolicies.countryPolicies,
--          listingPolicies.regionalTakeBackPolicies.countryPolicies,
--          listingPolicies.returnPolicyId, listingPolicies.shippingCostOverrides,
--          listingPolicies.takeBackPolicyId, listingStartDate, lotSize, marketplaceId,
--          merchantLocationKey, pricingSummary.auctionReservePrice.currency,
--          pricingSummary.auctionReservePrice.value, pricingSummary.auctionStartPrice.currency,
--          pricingSummary.auctionStartPrice.value, pricingSummary.minimumAdvertisedPrice.currency,
--          pricingSummary.minimumAdvertisedPrice.value,
--          pricingSummary.originallySoldForRetailPriceOn,
--          pricingSummary.originalRetailPrice.currency, pricingSummary.originalRetailPrice.value,
--          pricingSummary.price.currency, pricingSummary.price.value,
--          pricingSummary.pricingVisibility, quantityLimitPerBuyer, regulatory.documents,
--          regulatory.energyEfficiencyLabel.imageDescription,
--          regulatory.energyEfficiencyLabel.imageURL,
--          regulatory.energyEfficiencyLabel.productInformationSheet, regulatory.hazmat.component,
--          regulatory.hazmat.pictograms, regulatory.hazmat.signalWord,
--          regulatory.hazmat.statements, regulatory.manufacturer.addressLine1,
--          regulatory.manufacturer.addressLine2, regulatory.manufacturer.city,
--          regulatory.manufacturer.companyName, regulatory.manufacturer.contactUrl,
--          … (16 more in createOffer.j2)
create table ebay.sell.inventory.createOffer
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/offer"
     using headers 'Content-Type' = 'application/json',
                   'Content-Language' = '{contentLanguage}'
     using defaults contentLanguage = "en-US"
     using bodyTemplate 'createOffer.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
