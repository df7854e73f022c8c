-- Get item snapshot feed
-- GET /item_snapshot (operation getItemSnapshotFeed); the resultset is the `items` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.item.feed).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), ^range (header Range),
--          ^category_id (query), ^snapshot_date (query)
create table ebay.buy.feed.getItemSnapshotFeed
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/feed/v1_beta/item_snapshot?category_id={^category_id}&snapshot_date={^snapshot_date}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Range' = '{^range}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'items'
