-- A join refers to both sources; an in (select …) refers to what the nested
-- select reads. Column paths and join keys are row paths, not variables.
wanted = ["1", "2"];
ids = select id from catalog where id in (select value from wanted);
return select i.title as title, p.amount as price
    from items as i, prices as p
    where i.id in ("{ids}") and p.item = i.id and p.currency = "{currency}";
