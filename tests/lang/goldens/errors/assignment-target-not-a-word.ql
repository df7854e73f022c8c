a.b = 1
