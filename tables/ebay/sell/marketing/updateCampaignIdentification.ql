-- Update campaign identification
-- POST /ad_campaign/{campaign_id}/update_campaign_identification (operation updateCampaignIdentification).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through updateCampaignIdentification.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^campaign_id (path), campaignName, endDate, startDate
create table ebay.sell.marketing.updateCampaignIdentification
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/update_campaign_identification"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateCampaignIdentification.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
