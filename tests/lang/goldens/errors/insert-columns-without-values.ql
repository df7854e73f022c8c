insert into t (a, b)
