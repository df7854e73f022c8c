create table t
  on select get from 'x'
     resultset 'a'
     resultset 'b'
