-- Create item draft
-- POST /item_draft/ (operation createItemDraft).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.item.draft).
-- Body (application/json) from the columns through createItemDraft.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: contentLanguage (header Content-Language),
--          marketplace (header X-EBAY-C-MARKETPLACE-ID), categoryId, condition, format,
--          pricingSummary.auctionReservePrice.currency, pricingSummary.auctionReservePrice.value,
--          pricingSummary.auctionStartPrice.currency, pricingSummary.auctionStartPrice.value,
--          pricingSummary.price.currency, pricingSummary.price.value, product.aspects,
--          product.brand, product.description, product.epid, product.imageUrls, product.title,
--          charity.donationPercentage, charity.charityId
create table ebay.sell.listing.createItemDraft
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/listing/v1_beta/item_draft/"
     using headers 'Content-Language' = '{contentLanguage}',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults contentLanguage = "en-US",
                    marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'createItemDraft.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
