-- Place proxy bid
-- POST /bidding/{item_id}/place_proxy_bid (operation placeProxyBid).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.offer.auction).
-- Body (application/json) from the columns through placeProxyBid.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^item_id (path), marketplace (header X-EBAY-C-MARKETPLACE-ID), maxAmount.currency,
--          maxAmount.value, userConsent.adultOnlyItem
create table ebay.buy.offer.placeProxyBid
  on insert post to "{config.tables.ebay.rest.hosts.api}/buy/offer/v1_beta/bidding/{^item_id}/place_proxy_bid"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'placeProxyBid.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
