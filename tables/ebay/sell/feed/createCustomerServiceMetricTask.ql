-- Create customer service metric task
-- POST /customer_service_metric_task (operation createCustomerServiceMetricTask).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- Body (application/json) from the columns through createCustomerServiceMetricTask.j2 (dotted
-- paths, typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^acceptLanguage (header accept-language), feedType,
--          filterCriteria.customerServiceMetricType, filterCriteria.evaluationMarketplaceId,
--          filterCriteria.listingCategories, filterCriteria.shippingRegions, schemaVersion
create table ebay.sell.feed.createCustomerServiceMetricTask
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/customer_service_metric_task"
     using headers 'accept-language' = '{^acceptLanguage}'
     using bodyTemplate 'createCustomerServiceMetricTask.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
