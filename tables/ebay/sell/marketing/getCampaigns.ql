-- Get campaigns
-- GET /ad_campaign (operation getCampaigns); the resultset is the `campaigns` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: campaign_name (query), campaign_status (query), end_date_range (query),
--          funding_strategy (query), limit (query), offset (query), start_date_range (query)
create table ebay.sell.marketing.getCampaigns
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign?campaign_name={campaign_name}&campaign_status={campaign_status}&end_date_range={end_date_range}&funding_strategy={funding_strategy}&limit={limit}&offset={offset}&start_date_range={start_date_range}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'campaigns'
