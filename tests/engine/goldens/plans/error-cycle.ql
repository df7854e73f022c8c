-- A reference cycle is a compile error naming the cycle, not a run that hangs.
a = "{c}";
b = "{a}";
c = "{b}";
return a;
