create table t
  on select get from 'x'
  on select get from 'y'
