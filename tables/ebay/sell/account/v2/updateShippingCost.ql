-- Update shipping cost
-- POST /rate_table/{rate_table_id}/update_shipping_cost (operation updateShippingCost).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through updateShippingCost.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^rate_table_id (path), rates
create table ebay.sell.account.v2.updateShippingCost
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/account/v2/rate_table/{^rate_table_id}/update_shipping_cost"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateShippingCost.j2' type 'application/json'
     using patch '../../../rest.py'
     using auth 'ebay.user'
