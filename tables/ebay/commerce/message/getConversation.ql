-- Get conversation
-- GET /conversation/{conversation_id} (operation getConversation).
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/commerce.message).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^conversation_id (path), ^conversation_type (query), limit (query), offset (query)
create table ebay.commerce.message.getConversation
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/message/v1/conversation/{^conversation_id}?conversation_type={^conversation_type}&limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
