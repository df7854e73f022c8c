-- Update conversation
-- POST /update_conversation (operation updateConversation).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/commerce.message).
-- Body (application/json) from the columns through updateConversation.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: conversationId, conversationStatus, conversationType, read
create table ebay.commerce.message.updateConversation
  on insert post to "{config.tables.ebay.rest.hosts.api}/commerce/message/v1/update_conversation"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateConversation.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
