-- Get report metadata for report type
-- GET /ad_report_metadata/{report_type} (operation getReportMetadataForReportType).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^report_type (path)
create table ebay.sell.marketing.getReportMetadataForReportType
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_report_metadata/{^report_type}"
     using patch '../../rest.py'
     using auth 'ebay.app'
