-- Bulk create negative keyword
-- POST /bulk_create_negative_keyword (operation bulkCreateNegativeKeyword); the resultset is the `responses` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through bulkCreateNegativeKeyword.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: requests
create table ebay.sell.marketing.bulkCreateNegativeKeyword
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/bulk_create_negative_keyword"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'bulkCreateNegativeKeyword.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'responses'
