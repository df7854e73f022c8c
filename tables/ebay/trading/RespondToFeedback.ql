-- Reply to, or follow up on, a feedback entry.
-- eBay Trading RespondToFeedback: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: FeedbackID, ItemID, TransactionID, TargetUserID, ResponseType, ResponseText,
--          OrderLineItemID
create table ebay.trading.RespondToFeedback
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'RespondToFeedback'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'RespondToFeedbackResponse'
     with arrays '..Errors', '..ErrorParameters'
