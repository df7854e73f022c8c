-- Get event
-- GET /event/{event_id} (operation getEvent).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.deal).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), ^event_id (path)
create table ebay.buy.deal.getEvent
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/deal/v1/event/{^event_id}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
