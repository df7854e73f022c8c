-- Change a Selling Manager sale record.
-- eBay Trading ReviseSellingManagerSaleRecord: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, TransactionID, OrderID, SellingManagerSoldOrder.ShippingAddress.Street1,
--          SellingManagerSoldOrder.ShippingAddress.CityName,
--          SellingManagerSoldOrder.ShippingAddress.StateOrProvince,
--          SellingManagerSoldOrder.ShippingAddress.Country,
--          SellingManagerSoldOrder.ShippingDetails.SalesTax.SalesTaxPercent,
--          SellingManagerSoldOrder.ShippingDetails.ShippingServiceOptions.ShippingService,
--          SellingManagerSoldOrder.ShippingDetails.ShippingServiceOptions.ShippingServiceCost,
--          SellingManagerSoldOrder.ShippingDetails.ShippingServiceOptions.ShippingServiceCost.currencyID,
--          SellingManagerSoldOrder.CashOnDeliveryCost,
--          SellingManagerSoldOrder.CashOnDeliveryCost.currencyID,
--          SellingManagerSoldOrder.ItemCost, SellingManagerSoldOrder.ItemCost.currencyID,
--          SellingManagerSoldOrder.VATRate.ItemID, SellingManagerSoldOrder.VATRate.TransactionID,
--          SellingManagerSoldOrder.VATRate.VATPercent,
--          SellingManagerSoldOrder.VATRate.OrderLineItemID,
--          SellingManagerSoldOrder.ActualShippingCost,
--          SellingManagerSoldOrder.ActualShippingCost.currencyID,
--          SellingManagerSoldOrder.AdjustmentAmount,
--          SellingManagerSoldOrder.AdjustmentAmount.currencyID,
--          SellingManagerSoldOrder.NotesToBuyer, SellingManagerSoldOrder.NotesToSeller,
--          SellingManagerSoldOrder.OrderStatus.PaidStatus,
--          SellingManagerSoldOrder.OrderStatus.ShippedStatus,
--          SellingManagerSoldOrder.OrderStatus.PaymentMethodUsed, OrderLineItemID
create table ebay.trading.ReviseSellingManagerSaleRecord
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseSellingManagerSaleRecord'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseSellingManagerSaleRecordResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseSellingManagerSaleRecord'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseSellingManagerSaleRecordResponse'
     with arrays '..Errors', '..ErrorParameters'
