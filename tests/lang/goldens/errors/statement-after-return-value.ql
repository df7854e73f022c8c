a = 1
return b from c
