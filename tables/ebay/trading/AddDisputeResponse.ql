-- Add a message, tracking data or status change to an existing dispute.
-- eBay Trading AddDisputeResponse: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: DisputeID, MessageText, DisputeActivity, ShippingCarrierUsed, ShipmentTrackNumber,
--          ShippingTime
create table ebay.trading.AddDisputeResponse
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddDisputeResponse'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddDisputeResponseResponse'
     with arrays '..Errors', '..ErrorParameters'
