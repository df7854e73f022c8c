-- Get payment dispute summaries
-- GET /payment_dispute_summary (operation getPaymentDisputeSummaries); the resultset is the `paymentDisputeSummaries` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.payment.dispute).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: order_id (query), buyer_username (query), open_date_from (query), open_date_to (query),
--          payment_dispute_status (query), limit (query), offset (query)
create table ebay.sell.fulfillment.getPaymentDisputeSummaries
  on select get from "{config.tables.ebay.rest.hosts.apiz}/sell/fulfillment/v1/payment_dispute_summary?order_id={order_id}&buyer_username={buyer_username}&open_date_from={open_date_from}&open_date_to={open_date_to}&payment_dispute_status={payment_dispute_status}&limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'paymentDisputeSummaries'
