a = select * from t where q = "{x}" and r = "{^x}" and s = "{config.a.b}"
b = select * from t where k = "{20|ids}" and h = "{#block}" and raw = "{`path}"
c = select * from t where key = "{config.{config.ua}.key}" and mixed = "id-{n}-of-{total}" and rows = "{rows[0].id}"
