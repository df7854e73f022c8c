-- Get event items
-- GET /event_item (operation getEventItems); the resultset is the `eventItems` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.deal).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: category_ids (query), delivery_country (query), ^event_ids (query), limit (query),
--          offset (query), marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.buy.deal.getEventItems
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/deal/v1/event_item?category_ids={category_ids}&delivery_country={delivery_country}&event_ids={^event_ids}&limit={limit}&offset={offset}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'eventItems'
