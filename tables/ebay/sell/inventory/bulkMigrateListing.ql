-- Bulk migrate listing
-- POST /bulk_migrate_listing (operation bulkMigrateListing); the resultset is the `responses` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through bulkMigrateListing.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: requests
create table ebay.sell.inventory.bulkMigrateListing
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/bulk_migrate_listing"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'bulkMigrateListing.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'responses'
