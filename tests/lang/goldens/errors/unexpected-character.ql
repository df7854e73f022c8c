select * from t where a = @
