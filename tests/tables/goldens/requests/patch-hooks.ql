-- A patch rewrites the request: patch_uri scatters one URI into two, patch_headers
-- adds a signature over each URI, patch_body (POST only) is not called for a GET.
-- values: {"q": "lamp"}
create table shop.signed
  on select get from "{config.base}/find?q={q}"
     using patch 'files/signing.py'
