u = require("udfs/filters.py");
return select t as t, u.money(p.v, p.c) as price from rows where u.keepCheap(p.v, 10) and site = "US"
