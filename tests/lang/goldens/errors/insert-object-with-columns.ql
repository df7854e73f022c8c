insert "{obj}" into t (a) values ("1")
