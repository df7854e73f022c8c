-- Create or replace product compatibility
-- PUT /inventory_item/{sku}/product_compatibility (operation createOrReplaceProductCompatibility).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through createOrReplaceProductCompatibility.j2 (dotted
-- paths, typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: contentLanguage (header Content-Language), ^sku (path), compatibleProducts, sku
create table ebay.sell.inventory.createOrReplaceProductCompatibility
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/inventory_item/{^sku}/product_compatibility"
     using headers 'Content-Type' = 'application/json',
                   'Content-Language' = '{contentLanguage}'
     using defaults contentLanguage = "en-US"
     using bodyTemplate 'createOrReplaceProductCompatibility.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
