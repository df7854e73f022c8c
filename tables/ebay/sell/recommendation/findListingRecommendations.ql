-- Find listing recommendations
-- POST /find (operation findListingRecommendations); the resultset is the `listingRecommendations` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through findListingRecommendations.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: filter (query), limit (query), offset (query),
--          marketplace (header X-EBAY-C-MARKETPLACE-ID), listingIds
create table ebay.sell.recommendation.findListingRecommendations
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/recommendation/v1/find?filter={filter}&limit={limit}&offset={offset}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'findListingRecommendations.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'listingRecommendations'
