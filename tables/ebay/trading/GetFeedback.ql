-- Return feedback received by a user.
-- eBay Trading GetFeedback: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: UserID, FeedbackID, ItemID, TransactionID, CommentType, FeedbackType,
--          Pagination.EntriesPerPage, Pagination.PageNumber, OrderLineItemID
create table ebay.trading.GetFeedback
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetFeedback'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetFeedbackResponse'
     with arrays 'FeedbackDetailArray.FeedbackDetail', '..Errors', '..ErrorParameters',
                 '..FeedbackPeriod', '..AverageRatingSummary', '..AverageRatingDetails'
