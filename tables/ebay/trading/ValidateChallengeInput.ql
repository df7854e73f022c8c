-- Validate a user's answer to a bot-block challenge.
-- eBay Trading ValidateChallengeInput: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ChallengeToken, UserInput, KeepTokenValid
create table ebay.trading.ValidateChallengeInput
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ValidateChallengeInput'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ValidateChallengeInputResponse'
     with arrays '..Errors', '..ErrorParameters'
