-- Get report metadata
-- GET /ad_report_metadata (operation getReportMetadata); the resultset is the `reportMetadata` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
create table ebay.sell.marketing.getReportMetadata
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_report_metadata"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'reportMetadata'
