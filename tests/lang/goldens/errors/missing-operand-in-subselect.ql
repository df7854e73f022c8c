select * from t where a = "{x}" and
  b in (select c from u where d = )
