-- DELETE /reports/{reportId} (operation deleteReport).
-- Auth: the config auth entry 'acme.weather' (scopes: reports.write).
-- Columns: ^reportId (path)
create table acme.weather.deleteReport
  on delete delete "{config.tables.acme.weather.baseUrl}/reports/{^reportId}"
     using patch 'weather.py'
     using auth 'acme.weather'
