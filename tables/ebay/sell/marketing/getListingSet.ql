-- Get listing set
-- GET /promotion/{promotion_id}/get_listing_set (operation getListingSet); the resultset is the `listings` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), offset (query), ^promotion_id (path), q (query), sort (query),
--          status (query)
create table ebay.sell.marketing.getListingSet
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/promotion/{^promotion_id}/get_listing_set?limit={limit}&offset={offset}&q={q}&sort={sort}&status={status}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'listings'
