-- Upload video
-- POST /video/{video_id}/upload (operation uploadVideo).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through uploadVideo.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: contentRange (header Content-Range), ^video_id (path)
create table ebay.commerce.media.uploadVideo
  on insert post to "{config.tables.ebay.rest.hosts.apim}/commerce/media/v1_beta/video/{^video_id}/upload"
     using headers 'Content-Type' = 'application/json',
                   'Content-Range' = '{contentRange}'
     using bodyTemplate 'uploadVideo.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
