-- File a report.
-- POST /stations/{stationId}/reports (operation fileReport).
-- Auth: the config auth entry 'acme.weather' (scopes: reports.write).
-- Body (application/json) from the columns through fileReport.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- Columns: ^stationId (path), ^units (header X-Units), ^observedAt, ^reading.temperature,
--          reading.windKmh, reading.raining, notes, reporter.name, reporter.reportedBy
create table acme.weather.fileReport
  on insert post to "{config.tables.acme.weather.baseUrl}/stations/{^stationId}/reports"
     using headers 'X-Units' = '{^units}'
     using bodyTemplate 'fileReport.j2' type 'application/json'
     using patch 'weather.py'
     using auth 'acme.weather'
