select items[?('@.price > 2 && @.sold != true')].name, $..itemId, a.b[*].c, rows[("@.length-1")],
       a['x-y'].z, a..*, list[0].id, '$t'.value
from t
