-- One name, two assignments outside an if/else: a compile error with both lines.
x = 1;
y = "{x}";
x = 2;
return y;
