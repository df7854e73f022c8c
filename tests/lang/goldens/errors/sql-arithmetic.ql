-- SQL habit: there is no arithmetic
total = 1 + 1;
return total;
