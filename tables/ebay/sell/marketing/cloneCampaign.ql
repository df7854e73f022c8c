-- Clone campaign
-- POST /ad_campaign/{campaign_id}/clone (operation cloneCampaign).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through cloneCampaign.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^campaign_id (path), campaignName, endDate, fundingStrategy.adRateStrategy,
--          fundingStrategy.bidPercentage, fundingStrategy.dynamicAdRatePreferences,
--          fundingStrategy.fundingModel, startDate
create table ebay.sell.marketing.cloneCampaign
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/clone"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'cloneCampaign.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
