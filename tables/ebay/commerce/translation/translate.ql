-- Translate
-- POST /translate (operation translate).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- Body (application/json) from the columns through translate.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: from, text, to, translationContext
create table ebay.commerce.translation.translate
  on insert post to "{config.tables.ebay.rest.hosts.api}/commerce/translation/v1_beta/translate"
     using bodyTemplate 'translate.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
