-- Create video
-- POST /video (operation createVideo).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through createVideo.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: classification, description, size, title
create table ebay.commerce.media.createVideo
  on insert post to "{config.tables.ebay.rest.hosts.apim}/commerce/media/v1_beta/video"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'createVideo.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
