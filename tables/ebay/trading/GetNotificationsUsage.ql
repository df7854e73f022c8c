-- Return platform notification delivery statistics.
-- eBay Trading GetNotificationsUsage: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: StartTime, EndTime, ItemID
create table ebay.trading.GetNotificationsUsage
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetNotificationsUsage'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetNotificationsUsageResponse'
     with arrays 'NotificationDetailsArray.NotificationDetails', '..Errors', '..ErrorParameters',
                 '..MarkUpMarkDownEvent'
