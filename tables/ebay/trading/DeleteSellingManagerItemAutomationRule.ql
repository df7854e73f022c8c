-- Remove an automation rule from a listing.
-- eBay Trading DeleteSellingManagerItemAutomationRule: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, DeleteAutomatedRelistingRule, DeleteAutomatedSecondChanceOfferRule
create table ebay.trading.DeleteSellingManagerItemAutomationRule
  on delete post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'DeleteSellingManagerItemAutomationRule'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'DeleteSellingManagerItemAutomationRuleResponse'
     with arrays 'Fees.Fee', '..Errors', '..ErrorParameters', '..DayOfWeek'
