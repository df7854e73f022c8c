insert into t (a, b) values ("1")
