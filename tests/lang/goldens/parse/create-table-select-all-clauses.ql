create table shop.search
  on select get from "{config.base}/s?q={^q}&n={20|ids}"
     resultset 'a.b'
     using defaults site = "US", page = 1, mode = fast
     with aliases limit = 'count', offset = 'start'
     using headers 'X-App' = '{config.app}', Accept = 'application/json'
     using patch 'search.py'
     expires 60
     expect ^Ack, ItemID
