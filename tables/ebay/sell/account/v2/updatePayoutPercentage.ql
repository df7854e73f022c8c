-- Update payout percentage
-- POST /payout_settings/update_percentage (operation updatePayoutPercentage).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.finances).
-- Body (application/json) from the columns through updatePayoutPercentage.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: payoutInstruments
create table ebay.sell.account.v2.updatePayoutPercentage
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/account/v2/payout_settings/update_percentage"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updatePayoutPercentage.j2' type 'application/json'
     using patch '../../../rest.py'
     using auth 'ebay.user'
