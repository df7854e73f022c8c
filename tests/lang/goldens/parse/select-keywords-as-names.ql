-- keywords are not reserved: the contextual lexer reads them as names where a name fits
select from.x, select, where.limit as offset from t
