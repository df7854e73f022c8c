create table shop.items
  on insert post to "{config.base}/items"
     using bodyTemplate 'add.xml.mu' type 'application/xml' foreach 'ItemID'
     authenticate using 'oauth'
  on update put to "{config.base}/items/{^id}"
     using bodyTemplate 'item.json.mu' type 'application/json'
     auth using 'basic'
  on delete delete "{config.base}/items/{^id}"
