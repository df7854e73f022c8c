-- Get video
-- GET /video/{video_id} (operation getVideo).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^video_id (path)
create table ebay.commerce.media.getVideo
  on select get from "{config.tables.ebay.rest.hosts.apim}/commerce/media/v1_beta/video/{^video_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
