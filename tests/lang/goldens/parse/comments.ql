-- a line comment before everything
a = /* inline */ select /* all */ * from -- the table
  t -- trailing
/* a block comment
   over two lines */ b = 2
-- the return's documentation
return a
