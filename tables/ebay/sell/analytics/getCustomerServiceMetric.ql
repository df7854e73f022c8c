-- Get customer service metric
-- GET /customer_service_metric/{customer_service_metric_type}/{evaluation_type} (operation getCustomerServiceMetric).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^customer_service_metric_type (path), ^evaluation_marketplace_id (query),
--          ^evaluation_type (path)
create table ebay.sell.analytics.getCustomerServiceMetric
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/analytics/v1/customer_service_metric/{^customer_service_metric_type}/{^evaluation_type}?evaluation_marketplace_id={^evaluation_marketplace_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
