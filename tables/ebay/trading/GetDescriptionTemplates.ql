-- Return Listing Designer themes and layouts.
-- eBay Trading GetDescriptionTemplates: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CategoryID, LastModifiedTime, MotorVehicles
create table ebay.trading.GetDescriptionTemplates
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetDescriptionTemplates'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetDescriptionTemplatesResponse'
     with arrays 'DescriptionTemplate', '..Errors', '..ErrorParameters', '..ObsoleteLayoutID',
                 '..ObsoleteThemeID', '..ThemeGroup', '..ThemeID'
