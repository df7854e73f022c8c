try { x = 1 }
