select * from t where a = "x}"
