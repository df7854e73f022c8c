-- Create report task
-- POST /ad_report_task (operation createReportTask).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through createReportTask.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: additionalRecords, campaignIds, dateFrom, dateTo, dimensions, fundingModels,
--          inventoryReferences, listingIds, marketplaceId, metricKeys, reportFormat, reportType
create table ebay.sell.marketing.createReportTask
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_report_task"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'createReportTask.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
