a = select * from t || select * from u || []
return a || b || {"empty": true} || null
