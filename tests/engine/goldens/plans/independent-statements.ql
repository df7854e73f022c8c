-- Statements that share no variable wait for nothing: they all start at once.
r0 = select id, title from items where id = "0";
r1 = select id, title from items where id = "1";
r2 = select * from reviews where item = "2";
return {"first": "{r0}", "second": "{r1}", "reviews": "{r2}"};
