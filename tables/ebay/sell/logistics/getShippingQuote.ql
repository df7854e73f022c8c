-- Get shipping quote
-- GET /shipping_quote/{shippingQuoteId} (operation getShippingQuote).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.logistics).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^shippingQuoteId (path)
create table ebay.sell.logistics.getShippingQuote
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/logistics/v1_beta/shipping_quote/{^shippingQuoteId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
