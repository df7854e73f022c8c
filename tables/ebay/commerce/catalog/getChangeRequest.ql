-- Get change request
-- GET /change_request/{change_request_id} (operation getChangeRequest).
-- Deprecated by the API.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), acceptLanguage (header Accept-Language),
--          ^change_request_id (path)
create table ebay.commerce.catalog.getChangeRequest
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/catalog/v1_beta/change_request/{^change_request_id}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.user'
