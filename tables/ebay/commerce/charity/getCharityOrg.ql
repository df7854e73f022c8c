-- Get charity org
-- GET /charity_org/{charity_org_id} (operation getCharityOrg).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^charity_org_id (path), marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.commerce.charity.getCharityOrg
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/charity/v1/charity_org/{^charity_org_id}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
