-- Get payout
-- GET /payout/{payout_Id} (operation getPayout).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.finances).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payout_Id (path)
create table ebay.sell.finances.getPayout
  on select get from "{config.tables.ebay.rest.hosts.apiz}/sell/finances/v1/payout/{^payout_Id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
