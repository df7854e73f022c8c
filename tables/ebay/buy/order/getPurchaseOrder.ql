-- Get purchase order
-- GET /purchase_order/{purchaseOrderId} (operation getPurchaseOrder).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.order.readonly https://api.ebay.com/oauth/api_scope/buy.order).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^purchaseOrderId (path)
create table ebay.buy.order.getPurchaseOrder
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/order/v1/purchase_order/{^purchaseOrderId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
