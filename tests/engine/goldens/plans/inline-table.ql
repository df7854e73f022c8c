-- A table the script defines refers to nothing when defined; statements that
-- call it wait for their own inputs.
create table local.items
    on select get from "{config.base}/items/{^id}?lang={lang}"
    using defaults lang = "{defaultLang}"
    resultset 'item';
id = "7";
item = select * from local.items where id = "{id}";
return item;
