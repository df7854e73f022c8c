-- Seller marks an order line item as paid/shipped, adds tracking or leaves feedback.
-- eBay Trading CompleteSale: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, TransactionID, FeedbackInfo.CommentText, FeedbackInfo.CommentType,
--          FeedbackInfo.TargetUser, Shipped, Paid, ListingType, Shipment.ShippedTime,
--          Shipment.ShipmentTrackingDetails.ShippingCarrierUsed,
--          Shipment.ShipmentTrackingDetails.ShipmentTrackingNumber,
--          Shipment.ShipmentTrackingDetails.ShipmentLineItem.LineItem.Quantity,
--          Shipment.ShipmentTrackingDetails.ShipmentLineItem.LineItem.CountryOfOrigin,
--          Shipment.ShipmentTrackingDetails.ShipmentLineItem.LineItem.Description,
--          Shipment.ShipmentTrackingDetails.ShipmentLineItem.LineItem.ItemID,
--          Shipment.ShipmentTrackingDetails.ShipmentLineItem.LineItem.TransactionID,
--          Shipment.ShipmentLineItem.LineItem.Quantity,
--          Shipment.ShipmentLineItem.LineItem.CountryOfOrigin,
--          Shipment.ShipmentLineItem.LineItem.Description,
--          Shipment.ShipmentLineItem.LineItem.ItemID,
--          Shipment.ShipmentLineItem.LineItem.TransactionID, OrderID, OrderLineItemID
create table ebay.trading.CompleteSale
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'CompleteSale'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'CompleteSaleResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'CompleteSale'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'CompleteSaleResponse'
     with arrays '..Errors', '..ErrorParameters'
