select * from t where
