-- Issue refund
-- POST /order/{order_id}/issue_refund (operation issueRefund).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.finances).
-- Body (application/json) from the columns through issueRefund.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^order_id (path), reasonForRefund, comment, refundItems,
--          orderLevelRefundAmount.currency, orderLevelRefundAmount.value
create table ebay.sell.fulfillment.issueRefund
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/fulfillment/v1/order/{^order_id}/issue_refund"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'issueRefund.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
