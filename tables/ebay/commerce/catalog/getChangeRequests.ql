-- Get change requests
-- GET /change_request (operation getChangeRequests); the resultset is the `changeRequests` array.
-- Deprecated by the API.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), acceptLanguage (header Accept-Language),
--          filter (query), limit (query), offset (query)
create table ebay.commerce.catalog.getChangeRequests
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/catalog/v1_beta/change_request?filter={filter}&limit={limit}&offset={offset}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'changeRequests'
