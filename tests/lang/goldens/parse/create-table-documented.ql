x = 1
-- Keyword search.
/* Pages with limit
 * and offset. */
create table t on select get from 'http://x/{^q}'

/** Not a doc: the blank line above does not matter, but the line below is code. */
y = 2
create table u on select get from 'http://y'
