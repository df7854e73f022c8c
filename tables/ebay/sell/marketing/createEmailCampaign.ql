-- Create email campaign
-- POST /email_campaign (operation createEmailCampaign).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through createEmailCampaign.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), audienceCodes, categoryId, categoryType,
--          emailCampaignType, itemIds, itemSelectMode, personalizedMessage, priceRange.currency,
--          priceRange.gte, priceRange.lte, promotionId, promotionSelectModeEnum, scheduleDate,
--          sort, subject
create table ebay.sell.marketing.createEmailCampaign
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/email_campaign"
     using headers 'Content-Type' = 'application/json',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'createEmailCampaign.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
