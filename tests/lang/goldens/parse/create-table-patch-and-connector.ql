create table notes on update patch "{config.base}/notes/{^id}" using defaults v = 2
create table docs via mongo on select do find at 'collection/{name}' resultset 'rows'
