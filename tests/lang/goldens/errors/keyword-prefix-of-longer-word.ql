create table t on select gett from 'x'
