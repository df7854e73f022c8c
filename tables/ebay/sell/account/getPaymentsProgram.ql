-- Get payments program
-- GET /payments_program/{marketplace_id}/{payments_program_type} (operation getPaymentsProgram).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^marketplace_id (path), ^payments_program_type (path)
create table ebay.sell.account.getPaymentsProgram
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/payments_program/{^marketplace_id}/{^payments_program_type}"
     using patch '../../rest.py'
     using auth 'ebay.user'
