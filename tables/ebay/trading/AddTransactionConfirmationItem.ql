-- List a transaction-confirmation item (motors).
-- eBay Trading AddTransactionConfirmationItem: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: RecipientUserID, VerifyEligibilityOnly, RecipientPostalCode, RecipientRelationType,
--          NegotiatedPrice, ListingDuration, ItemID, Comments
create table ebay.trading.AddTransactionConfirmationItem
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddTransactionConfirmationItem'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddTransactionConfirmationItemResponse'
     with arrays '..Errors', '..ErrorParameters'
