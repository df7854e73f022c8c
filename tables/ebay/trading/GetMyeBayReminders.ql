-- Return My eBay buying and selling reminder counts.
-- eBay Trading GetMyeBayReminders: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: BuyingReminders.DurationInDays, BuyingReminders.Include,
--          SellingReminders.DurationInDays, SellingReminders.Include
create table ebay.trading.GetMyeBayReminders
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetMyeBayReminders'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetMyeBayRemindersResponse'
     with arrays '..Errors', '..ErrorParameters'
