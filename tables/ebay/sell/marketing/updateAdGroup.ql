-- Update ad group
-- PUT /ad_campaign/{campaign_id}/ad_group/{ad_group_id} (operation updateAdGroup).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through updateAdGroup.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^ad_group_id (path), ^campaign_id (path), adGroupStatus, defaultBid.currency,
--          defaultBid.value, name
create table ebay.sell.marketing.updateAdGroup
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/ad_group/{^ad_group_id}"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateAdGroup.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
