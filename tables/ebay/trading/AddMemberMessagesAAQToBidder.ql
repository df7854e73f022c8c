-- Seller sends messages to bidders or best-offer makers on active listings.
-- eBay Trading AddMemberMessagesAAQToBidder: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: AddMemberMessagesAAQToBidderRequestContainer.CorrelationID,
--          AddMemberMessagesAAQToBidderRequestContainer.ItemID,
--          AddMemberMessagesAAQToBidderRequestContainer.MemberMessage.EmailCopyToSender,
--          AddMemberMessagesAAQToBidderRequestContainer.MemberMessage.RecipientID,
--          AddMemberMessagesAAQToBidderRequestContainer.MemberMessage.Body
create table ebay.trading.AddMemberMessagesAAQToBidder
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddMemberMessagesAAQToBidder'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddMemberMessagesAAQToBidderResponse'
     with arrays 'AddMemberMessagesAAQToBidderResponseContainer', '..Errors', '..ErrorParameters'
