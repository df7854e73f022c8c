x = foo(1)
