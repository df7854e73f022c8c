-- SQL habit: a where condition has only = and in
return select title from ebay.buy.browse.search where q = "camera" and price >= 10;
