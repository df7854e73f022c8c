-- Get product metadata
-- GET /get_product_metadata (operation getProductMetadata).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: acceptLanguage (header Accept-Language), ^epid (query),
--          other_applicable_category_ids (query), primary_category_id (query),
--          marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.commerce.catalog.getProductMetadata
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/catalog/v1_beta/get_product_metadata?epid={^epid}&other_applicable_category_ids={other_applicable_category_ids}&primary_category_id={primary_category_id}"
     using headers 'Accept-Language' = '{acceptLanguage}',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
