-- Get opted in programs
-- GET /program/get_opted_in_programs (operation getOptedInPrograms); the resultset is the `programs` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
create table ebay.sell.account.getOptedInPrograms
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/program/get_opted_in_programs"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'programs'
