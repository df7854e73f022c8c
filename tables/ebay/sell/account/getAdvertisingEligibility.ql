-- Get advertising eligibility
-- GET /advertising_eligibility (operation getAdvertisingEligibility); the resultset is the `advertisingEligibility` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: program_types (query), marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.sell.account.getAdvertisingEligibility
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/advertising_eligibility?program_types={program_types}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'advertisingEligibility'
