-- Combine several unpaid line items from the same buyer into one order.
-- eBay Trading AddOrder: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Order.ShippingDetails.SalesTax.SalesTaxPercent,
--          Order.ShippingDetails.SalesTax.SalesTaxState,
--          Order.ShippingDetails.SalesTax.ShippingIncludedInTax,
--          Order.ShippingDetails.ShippingServiceOptions.ShippingInsuranceCost,
--          Order.ShippingDetails.ShippingServiceOptions.ShippingService,
--          Order.ShippingDetails.ShippingServiceOptions.ShippingServiceCost,
--          Order.ShippingDetails.ShippingServiceOptions.ShippingServiceAdditionalCost,
--          Order.ShippingDetails.ShippingServiceOptions.ShippingServicePriority,
--          Order.ShippingDetails.ShippingServiceOptions.ShippingSurcharge,
--          Order.ShippingDetails.InternationalShippingServiceOption.ShippingService,
--          Order.ShippingDetails.InternationalShippingServiceOption.ShippingServiceCost,
--          Order.ShippingDetails.InternationalShippingServiceOption.ShippingServiceAdditionalCost,
--          Order.ShippingDetails.InternationalShippingServiceOption.ShippingServicePriority,
--          Order.ShippingDetails.InternationalShippingServiceOption.ShipToLocation,
--          Order.ShippingDetails.InternationalShippingServiceOption.ShippingInsuranceCost,
--          Order.ShippingDetails.CODCost, Order.CreatingUserRole, Order.PaymentMethods,
--          Order.Total, Order.TransactionArray.Transaction.Item.ItemID,
--          Order.TransactionArray.Transaction.TransactionID
create table ebay.trading.AddOrder
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddOrder',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddOrderResponse'
     with arrays '..Errors', '..ErrorParameters'
