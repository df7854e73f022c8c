-- Update checkout/payment status of an order line item.
-- eBay Trading ReviseCheckoutStatus: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, TransactionID, OrderID, AmountPaid, AmountPaid.currencyID, PaymentMethodUsed,
--          CheckoutStatus, ShippingService, ShippingIncludedInTax, PaymentStatus,
--          AdjustmentAmount, BuyerID, SalesTax, SalesTax.currencyID, ShippingCost,
--          ShippingCost.currencyID, EncryptedID, ExternalTransaction.ExternalTransactionID,
--          ExternalTransaction.ExternalTransactionTime, MultipleSellerPaymentID, CODCost,
--          CODCost.currencyID, OrderLineItemID
create table ebay.trading.ReviseCheckoutStatus
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseCheckoutStatus',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseCheckoutStatusResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseCheckoutStatus',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseCheckoutStatusResponse'
     with arrays '..Errors', '..ErrorParameters'
