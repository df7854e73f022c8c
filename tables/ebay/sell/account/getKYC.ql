-- Get KYC
-- GET /kyc (operation getKYC); the resultset is the `kycChecks` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
create table ebay.sell.account.getKYC
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/kyc"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'kycChecks'
