-- Create or replace sku location mapping
-- PUT /listing/{listingId}/sku/{sku}/locations (operation createOrReplaceSkuLocationMapping).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through createOrReplaceSkuLocationMapping.j2 (dotted
-- paths, typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^listingId (path), ^sku (path), locations
create table ebay.sell.inventory.createOrReplaceSkuLocationMapping
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/listing/{^listingId}/sku/{^sku}/locations"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'createOrReplaceSkuLocationMapping.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
