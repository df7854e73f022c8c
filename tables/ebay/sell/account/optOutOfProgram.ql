-- Opt out of program
-- POST /program/opt_out (operation optOutOfProgram).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through optOutOfProgram.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: programType
create table ebay.sell.account.optOutOfProgram
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/account/v1/program/opt_out"
     using bodyTemplate 'optOutOfProgram.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
