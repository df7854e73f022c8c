if (a && !b || (c)) {
  x = 1
} else {
  y = select * from t
}
if (!flag) { z = 3 }
