-- Bulk create offer
-- POST /bulk_create_offer (operation bulkCreateOffer); the resultset is the `responses` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through bulkCreateOffer.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: contentLanguage (header Content-Language), requests
create table ebay.sell.inventory.bulkCreateOffer
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/bulk_create_offer"
     using headers 'Content-Type' = 'application/json',
                   'Content-Language' = '{contentLanguage}'
     using defaults contentLanguage = "en-US"
     using bodyTemplate 'bulkCreateOffer.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'responses'
