x = 1
	select * from t where a =
