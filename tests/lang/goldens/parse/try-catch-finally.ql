try {
  r = select * from t
  throw (oops)
} catch (oops) {
  r = "fallback"
} catch (nope || gone) {
  r = null
} finally {
  done = true
}
return r
