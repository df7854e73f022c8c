-- Set automation rules on a listing.
-- eBay Trading SetSellingManagerItemAutomationRule: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, AutomatedRelistingRule.Type, AutomatedRelistingRule.RelistCondition,
--          AutomatedRelistingRule.RelistAfterDays, AutomatedRelistingRule.RelistAfterHours,
--          AutomatedRelistingRule.RelistAtSpecificTimeOfDay,
--          AutomatedRelistingRule.BestOfferDetails.BestOfferEnabled,
--          AutomatedRelistingRule.ListingHoldInventoryLevel,
--          AutomatedSecondChanceOfferRule.SecondChanceOfferCondition,
--          AutomatedSecondChanceOfferRule.Amount, AutomatedSecondChanceOfferRule.ProfitPercent,
--          AutomatedSecondChanceOfferRule.Duration,
--          AutomatedSecondChanceOfferRule.ListingHoldInventoryLevel
create table ebay.trading.SetSellingManagerItemAutomationRule
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetSellingManagerItemAutomationRule',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetSellingManagerItemAutomationRuleResponse'
     with arrays 'Fees.Fee', '..Errors', '..ErrorParameters', '..DayOfWeek'
