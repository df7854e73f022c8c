-- Get charity orgs
-- GET /charity_org (operation getCharityOrgs); the resultset is the `charityOrgs` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), offset (query), q (query), registration_ids (query),
--          marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.commerce.charity.getCharityOrgs
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/charity/v1/charity_org?limit={limit}&offset={offset}&q={q}&registration_ids={registration_ids}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'charityOrgs'
