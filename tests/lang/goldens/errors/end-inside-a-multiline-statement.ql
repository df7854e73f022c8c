a = select * from t
b = select * from u
c = select * from v where k = "{
  x" and z
