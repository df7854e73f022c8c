-- A route's return waits for what it returns; its headers are read after.
item = select * from items where id = "{id}";
return "{item}" via route '/items/{id}' using method get
    using headers 'x-item' = "{item.id}";
