-- SQL habit: there is no order by
return select title from ebay.buy.browse.search where q = "camera" order by price.value;
