-- Get guest purchase order
-- GET /guest_purchase_order/{purchaseOrderId} (operation getGuestPurchaseOrder).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.guest.order https://api.ebay.com/oauth/api_scope/buy.proxy.guest.order).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^purchaseOrderId (path)
create table ebay.buy.order.getGuestPurchaseOrder
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/order/v1/guest_purchase_order/{^purchaseOrderId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
