-- Set Selling Manager automatic feedback options.
-- eBay Trading SetSellingManagerFeedbackOptions: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: AutomatedLeaveFeedbackEvent, StoredComments.StoredCommentText
create table ebay.trading.SetSellingManagerFeedbackOptions
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetSellingManagerFeedbackOptions'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetSellingManagerFeedbackOptionsResponse'
     with arrays '..Errors', '..ErrorParameters'
