-- Setup quick campaign
-- POST /ad_campaign/setup_quick_campaign (operation setupQuickCampaign).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through setupQuickCampaign.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: budget.daily.amount.currency, budget.daily.amount.value, campaignName, endDate,
--          listingIds, marketplaceId, startDate
create table ebay.sell.marketing.setupQuickCampaign
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/setup_quick_campaign"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'setupQuickCampaign.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
