select a as b.c from t
