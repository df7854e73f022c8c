-- Seller replies to a question asked by a member.
-- eBay Trading AddMemberMessageRTQ: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, MemberMessage.EmailCopyToSender, MemberMessage.DisplayToPublic,
--          MemberMessage.RecipientID, MemberMessage.Body, MemberMessage.ParentMessageID
create table ebay.trading.AddMemberMessageRTQ
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddMemberMessageRTQ'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddMemberMessageRTQResponse'
     with arrays '..Errors', '..ErrorParameters'
