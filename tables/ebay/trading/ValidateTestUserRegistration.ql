-- Sandbox only: validate a test user registration.
-- eBay Trading ValidateTestUserRegistration: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: FeedbackScore, RegistrationDate, SubscribeSA, SubscribeSAPro, SubscribeSM,
--          SubscribeSMPro
create table ebay.trading.ValidateTestUserRegistration
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ValidateTestUserRegistration'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ValidateTestUserRegistrationResponse'
     with arrays '..Errors', '..ErrorParameters'
