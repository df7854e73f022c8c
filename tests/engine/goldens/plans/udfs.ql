-- require() binds a module; a UDF called as a statement reads its path
-- arguments as variables, one in a column or condition reads them from the row.
u = require("helpers.py");
rows = select * from items where q = "{q}";
ranked = u.rank(rows, {"by": "{order}"});
return select u.badge(price) as badge, title as title from ranked where u.cheap(price, 10);
