-- Opt in to program
-- POST /program/opt_in (operation optInToProgram).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through optInToProgram.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: programType
create table ebay.sell.account.optInToProgram
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/account/v1/program/opt_in"
     using bodyTemplate 'optInToProgram.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
