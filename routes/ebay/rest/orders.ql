-- The seller's orders (Fulfillment API), newest first, with eBay's filter syntax:
--   /ebay/orders?filter=orderfulfillmentstatus:%7BNOT_STARTED%7CIN_PROGRESS%7D&limit=20&offset=0
return select orderId as orderId, creationDate as created, orderFulfillmentStatus as status,
              buyer.username as buyer, pricingSummary.total as total, lineItems as lineItems
       from ebay.sell.fulfillment.getOrders
       where filter = "{filter}" and limit = "{limit}" and offset = "{offset}"
  via route '/ebay/orders?filter={filter}&limit={limit}&offset={offset}' with optional params using method get;
