-- Send message
-- POST /send_message (operation sendMessage).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/commerce.message).
-- Body (application/json) from the columns through sendMessage.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: conversationId, emailCopyToSender, messageMedia, messageText, otherPartyUsername,
--          reference.referenceId, reference.referenceType
create table ebay.commerce.message.sendMessage
  on insert post to "{config.tables.ebay.rest.hosts.api}/commerce/message/v1/send_message"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'sendMessage.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
