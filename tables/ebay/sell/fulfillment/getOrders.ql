-- Get orders
-- GET /order (operation getOrders); the resultset is the `orders` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.fulfillment.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: select orderId, orderFulfillmentStatus, pricingSummary.total from ebay.sell.fulfillment.getOrders limit 10
-- Columns: fieldGroups (query), filter (query), limit (query), offset (query), orderIds (query)
create table ebay.sell.fulfillment.getOrders
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/fulfillment/v1/order?fieldGroups={fieldGroups}&filter={filter}&limit={limit}&offset={offset}&orderIds={orderIds}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'orders'
