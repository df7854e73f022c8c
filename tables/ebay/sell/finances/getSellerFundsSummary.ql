-- Get seller funds summary
-- GET /seller_funds_summary (operation getSellerFundsSummary).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.finances).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
create table ebay.sell.finances.getSellerFundsSummary
  on select get from "{config.tables.ebay.rest.hosts.apiz}/sell/finances/v1/seller_funds_summary"
     using patch '../../rest.py'
     using auth 'ebay.user'
