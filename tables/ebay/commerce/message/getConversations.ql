-- Get conversations
-- GET /conversation (operation getConversations); the resultset is the `conversations` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/commerce.message).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: conversation_status (query), ^conversation_type (query), end_time (query),
--          limit (query), offset (query), other_party_username (query), reference_id (query),
--          reference_type (query), start_time (query)
create table ebay.commerce.message.getConversations
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/message/v1/conversation?conversation_status={conversation_status}&conversation_type={^conversation_type}&end_time={end_time}&limit={limit}&offset={offset}&other_party_username={other_party_username}&reference_id={reference_id}&reference_type={reference_type}&start_time={start_time}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'conversations'
