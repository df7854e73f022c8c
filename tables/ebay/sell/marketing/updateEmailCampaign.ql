-- Update email campaign
-- PUT /email_campaign/{email_campaign_id} (operation updateEmailCampaign).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through updateEmailCampaign.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^email_campaign_id (path), audienceCodes, categoryId, categoryType, itemIds,
--          itemSelectMode, personalizedMessage, priceRange.currency, priceRange.gte,
--          priceRange.lte, promotionId, promotionSelectModeEnum, scheduleDate, sort, subject
create table ebay.sell.marketing.updateEmailCampaign
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/email_campaign/{^email_campaign_id}"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateEmailCampaign.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
