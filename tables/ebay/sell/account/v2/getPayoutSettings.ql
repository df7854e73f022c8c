-- Get payout settings
-- GET /payout_settings (operation getPayoutSettings); the resultset is the `payoutInstruments` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.finances).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
create table ebay.sell.account.v2.getPayoutSettings
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v2/payout_settings"
     using patch '../../../rest.py'
     using auth 'ebay.user'
     resultset 'payoutInstruments'
