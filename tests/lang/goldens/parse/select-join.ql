-- a join: two sources with aliases, joined on a column of each
return select d.title as title, s.price as price
       from items as d, prices as s
       where d.itemId = s.itemId and s.currency = "USD"
