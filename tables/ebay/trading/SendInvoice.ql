-- Send an invoice to a buyer.
-- eBay Trading SendInvoice: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, TransactionID, OrderID, InternationalShippingServiceOptions.ShippingService,
--          InternationalShippingServiceOptions.ShippingServiceCost,
--          InternationalShippingServiceOptions.ShippingServiceCost.currencyID,
--          InternationalShippingServiceOptions.ShippingServiceAdditionalCost,
--          InternationalShippingServiceOptions.ShippingServiceAdditionalCost.currencyID,
--          InternationalShippingServiceOptions.ShippingServicePriority,
--          InternationalShippingServiceOptions.ShipToLocation,
--          InternationalShippingServiceOptions.ShippingInsuranceCost,
--          InternationalShippingServiceOptions.ShippingInsuranceCost.currencyID,
--          ShippingServiceOptions.ShippingInsuranceCost,
--          ShippingServiceOptions.ShippingInsuranceCost.currencyID,
--          ShippingServiceOptions.ShippingService, ShippingServiceOptions.ShippingServiceCost,
--          ShippingServiceOptions.ShippingServiceCost.currencyID,
--          ShippingServiceOptions.ShippingServiceAdditionalCost,
--          ShippingServiceOptions.ShippingServiceAdditionalCost.currencyID,
--          ShippingServiceOptions.ShippingServicePriority,
--          ShippingServiceOptions.ShippingSurcharge,
--          ShippingServiceOptions.ShippingSurcharge.currencyID, SalesTax.SalesTaxPercent,
--          SalesTax.SalesTaxState, SalesTax.ShippingIncludedInTax, SalesTax.SalesTaxAmount,
--          SalesTax.SalesTaxAmount.currencyID, InsuranceOption, InsuranceFee,
--          InsuranceFee.currencyID, PaymentMethods, PayPalEmailAddress, CheckoutInstructions,
--          EmailCopyToSeller, CODCost, CODCost.currencyID, SKU, OrderLineItemID
create table ebay.trading.SendInvoice
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SendInvoice',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SendInvoiceResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SendInvoice',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SendInvoiceResponse'
     with arrays '..Errors', '..ErrorParameters'
