-- The gateway's own headers first, then the table's, filled from config and the
-- statement; header names are sent in lower case.
-- values: {"locale": "de-DE", "id": "9"}
create table shop.item
  on select get from "{config.base}/items/{^id}"
     using headers 'X-App-Id' = '{config.appId}', 'Accept-Language' = '{locale}', 'X-Empty' = '{nothing}'
