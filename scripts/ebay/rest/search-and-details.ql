-- Buyer: search with the Browse API, then the details of the first hit.
--   qlgate run scripts/ebay/rest/search-and-details.ql --var keywords=camera
first = select itemId from ebay.buy.browse.search where q = "{keywords}" limit 1;
return select itemId as itemId, title as title, price as price, condition as condition,
              seller.username as seller, itemLocation.city as city
       from ebay.buy.browse.getItem where item_id = "{^first}";
