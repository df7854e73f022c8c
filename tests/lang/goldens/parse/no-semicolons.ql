a = 1 b = 2 c = "three"; d = {"copy": "{b}"}
return true
