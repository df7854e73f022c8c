-- tuning keywords are case-insensitive and may be given in part
a = select * from t timeout 500 minDelay 10 MAXDELAY 90
b = select * from t where id = 1 limit 3 mindelay 0
