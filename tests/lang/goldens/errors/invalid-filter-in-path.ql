select a[?('@.x ==')] from t
