x = {'a': [1, -2.5, 6e2, true, false, null, +3, 1.], "b": "{y}", "c": "it's \"q\"", "d": 'say "hi"\n'}
e = []
o = {}
s = "\u00e9t\u00e9"
