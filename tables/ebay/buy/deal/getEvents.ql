-- Get events
-- GET /event (operation getEvents); the resultset is the `events` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.deal).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), offset (query), marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.buy.deal.getEvents
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/deal/v1/event?limit={limit}&offset={offset}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'events'
