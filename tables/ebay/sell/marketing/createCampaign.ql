-- Create campaign
-- POST /ad_campaign (operation createCampaign).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through createCampaign.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: budget.daily.amount.currency, budget.daily.amount.value,
--          campaignCriterion.autoSelectFutureInventory, campaignCriterion.criterionType,
--          campaignCriterion.selectionRules, campaignName, endDate,
--          fundingStrategy.adRateStrategy, fundingStrategy.bidPercentage,
--          fundingStrategy.dynamicAdRatePreferences, fundingStrategy.fundingModel, marketplaceId,
--          startDate
create table ebay.sell.marketing.createCampaign
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'createCampaign.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
