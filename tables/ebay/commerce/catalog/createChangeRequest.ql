-- Create change request
-- POST /change_request (operation createChangeRequest).
-- Deprecated by the API.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through createChangeRequest.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), acceptLanguage (header Accept-Language),
--          changeRequestType, reasonForChangeRequest, referenceId, referenceType,
--          suggestedProduct.additionalImageUrls, suggestedProduct.aspects, suggestedProduct.brand,
--          suggestedProduct.description, suggestedProduct.ean, suggestedProduct.epid,
--          suggestedProduct.imageUrl, suggestedProduct.isbn, suggestedProduct.mpn,
--          suggestedProduct.otherApplicableCategoryIds, suggestedProduct.primaryCategoryId,
--          suggestedProduct.title, suggestedProduct.upc, suggestedProduct.version
create table ebay.commerce.catalog.createChangeRequest
  on insert post to "{config.tables.ebay.rest.hosts.api}/commerce/catalog/v1_beta/change_request"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'createChangeRequest.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
