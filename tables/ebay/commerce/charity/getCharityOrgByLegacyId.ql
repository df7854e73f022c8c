-- Get charity org by legacy id
-- GET /charity_org/get_charity_org_by_legacy_id (operation getCharityOrgByLegacyId).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), ^legacy_charity_org_id (query)
create table ebay.commerce.charity.getCharityOrgByLegacyId
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/charity/v1/charity_org/get_charity_org_by_legacy_id?legacy_charity_org_id={^legacy_charity_org_id}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
