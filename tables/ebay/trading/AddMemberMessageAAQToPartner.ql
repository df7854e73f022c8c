-- Buyer/seller sends an Ask-A-Question message to a trading partner about an item.
-- eBay Trading AddMemberMessageAAQToPartner: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, MemberMessage.QuestionType, MemberMessage.EmailCopyToSender,
--          MemberMessage.RecipientID, MemberMessage.Subject, MemberMessage.Body
create table ebay.trading.AddMemberMessageAAQToPartner
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddMemberMessageAAQToPartner'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddMemberMessageAAQToPartnerResponse'
     with arrays '..Errors', '..ErrorParameters'
