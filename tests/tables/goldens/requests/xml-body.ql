-- A Mustache body template for XML: every value is escaped for XML.
-- verb: insert
-- values: {"title": "Fish & Chips <large>", "price": 9.5, "tags": ["hot", "fresh"]}
create table shop.add
  on insert post to "{config.base}/items"
     using bodyTemplate 'files/add-item.xml.mu' type 'application/xml'
