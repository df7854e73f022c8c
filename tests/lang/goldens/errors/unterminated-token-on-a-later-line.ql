a = 1
b = select * from t where k = "first line
  then {x"
