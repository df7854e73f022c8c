select * from t limit -1
