-- Stations, by country.
-- GET /stations (operation listStations); the resultset is the `stations` array.
-- Paging: limit → pageSize, offset → page (offset / limit + 1).
-- Example: select * from acme.weather.listStations where country = "NO" limit 5
-- Columns: ^country (query), page (query), pageSize (query), units (header X-Units)
create table acme.weather.listStations
  on select get from "{config.tables.acme.weather.baseUrl}/stations?country={^country}&page={page}&pageSize={pageSize}"
     with aliases limit = 'pageSize', page = 'page'
     using headers 'X-Api-Key' = '{config.tables.acme.weather.stationKey}',
                   'X-Units' = '{units}'
     using patch 'weather.py'
     resultset 'stations'
