-- Bulk update conversation
-- POST /bulk_update_conversation (operation bulkUpdateConversation).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/commerce.message).
-- Body (application/json) from the columns through bulkUpdateConversation.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: conversations
create table ebay.commerce.message.bulkUpdateConversation
  on insert post to "{config.tables.ebay.rest.hosts.api}/commerce/message/v1/bulk_update_conversation"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'bulkUpdateConversation.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
