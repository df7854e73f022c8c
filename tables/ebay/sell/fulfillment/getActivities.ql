-- Get activities
-- GET /payment_dispute/{payment_dispute_id}/activity (operation getActivities); the resultset is the `activity` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.payment.dispute).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payment_dispute_id (path)
create table ebay.sell.fulfillment.getActivities
  on select get from "{config.tables.ebay.rest.hosts.apiz}/sell/fulfillment/v1/payment_dispute/{^payment_dispute_id}/activity"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'activity'
