-- A station's reports between two times.
-- GET /stations/{stationId}/reports (operation getStationsStationIdReports).
-- Columns: ^stationId (path), ^from (query), to (query), fields (query fields[])
create table acme.weather.getStationsStationIdReports
  on select get from "{config.tables.acme.weather.baseUrl}/stations/{^stationId}/reports?from={^from}&to={to}&fields%5B%5D={|fields}"
     using headers 'X-Api-Key' = '{config.tables.acme.weather.stationKey}'
     using patch 'weather.py'
