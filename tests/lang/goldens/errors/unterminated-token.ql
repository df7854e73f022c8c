x = select * from t where a = "{itemid"
