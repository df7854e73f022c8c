-- Send offer to interested buyers
-- POST /send_offer_to_interested_buyers (operation sendOfferToInterestedBuyers); the resultset is the `offers` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through sendOfferToInterestedBuyers.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), allowCounterOffer, message,
--          offerDuration.unit, offerDuration.value, offeredItems
create table ebay.sell.negotiation.sendOfferToInterestedBuyers
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/negotiation/v1/send_offer_to_interested_buyers"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'sendOfferToInterestedBuyers.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'offers'
