-- Defaults fill what the statement leaves out, and may read other parameters and
-- config; a statement's limit and offset go out under the names the aliases give.
-- values: {"keywords": "camera"}
-- statement: {"limit": 25, "offset": 50}
create table shop.search
  on select get from "{config.base}/search?kw={keywords}&site={site}&n={count}&skip={start}&app={appId}"
     with aliases limit = 'count', offset = 'start'
     using defaults site = "{config.site}", appId = "{config.appId}"
  resultset 'results.item'
