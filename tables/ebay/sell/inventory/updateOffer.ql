-- Update offer
-- PUT /offer/{offerId} (operation updateOffer).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through updateOffer.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: contentLanguage (header Content-Language), ^offerId (path), availableQuantity,
--          categoryId, charity.charityId, charity.donationPercentage,
--          extendedProducerResponsibility.ecoParticipationFee.currency,
--          extendedProducerResponsibility.ecoParticipationFee.value,
--          extendedProducerResponsibility.producerProductId,
--          extendedProducerResponsibility.productDocumentationId,
--          extendedProducerResponsibility.productPackageId,
--          extendedProducerResponsibility.shipmentPackageId, hideBuyerDetails,
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
--          listingPolicies.takeBackPolicyId, listingStartDate, lotSize, merchantLocationKey,
--          pricingSummary.auctionReservePrice.currency, pricingSummary.auctionReservePrice.value,
--          pricingSummary.auctionStartPrice.currency, pricingSummary.auctionStartPrice.value,
--          pricingSummary.minimumAdvertisedPrice.currency,
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
--          regulatory.manufacturer.country, … (14 more in updateOffer.j2)
create table ebay.sell.inventory.updateOffer
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/offer/{^offerId}"
     using headers 'Content-Type' = 'application/json',
                   'Content-Language' = '{contentLanguage}'
     using defaults contentLanguage = "en-US"
     using bodyTemplate 'updateOffer.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
