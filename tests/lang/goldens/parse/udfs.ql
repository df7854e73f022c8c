u = require("udfs/x.py");
v = u.add(a, 2, "three", {"k": [1]});
w = u.now();
return select u.format(title, "{currency}") as t from rows
