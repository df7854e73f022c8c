-- Browse search: /ebay/browse/search?q=camera&limit=10&offset=0&sort=price&filter=conditionIds:{1000}&category=31388
-- Always a list of items (empty when nothing matches), however many hits there are.
return select itemId as itemId, title as title, price.value as price, price.currency as currency,
              condition as condition, seller.username as seller, itemWebUrl as url
       from ebay.buy.browse.search
       where q = "{q}" and category_ids = "{category}" and filter = "{filter}" and sort = "{sort}"
         and limit = "{limit}" and offset = "{offset}"
  via route '/ebay/browse/search?q={q}&category={category}&filter={filter}&sort={sort}&limit={limit}&offset={offset}'
  with optional params using method get;
