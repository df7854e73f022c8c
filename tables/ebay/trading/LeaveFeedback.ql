-- Leave feedback for a trading partner.
-- eBay Trading LeaveFeedback: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, CommentText, CommentType, TransactionID, TargetUser,
--          SellerItemRatingDetailArray.ItemRatingDetails.RatingDetail,
--          SellerItemRatingDetailArray.ItemRatingDetails.Rating, OrderLineItemID
create table ebay.trading.LeaveFeedback
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'LeaveFeedback'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'LeaveFeedbackResponse'
     with arrays '..Errors', '..ErrorParameters'
