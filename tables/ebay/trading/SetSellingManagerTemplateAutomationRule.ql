-- Set automation rules on a template.
-- eBay Trading SetSellingManagerTemplateAutomationRule: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: SaleTemplateID, AutomatedListingRule.SourceSaleTemplateID,
--          AutomatedListingRule.KeepMinActive.MinActiveItemCount,
--          AutomatedListingRule.KeepMinActive.ListTimeFrom,
--          AutomatedListingRule.KeepMinActive.ListTimeTo,
--          AutomatedListingRule.KeepMinActive.SpacingIntervalInMinutes,
--          AutomatedListingRule.KeepMinActive.ListingHoldInventoryLevel,
--          AutomatedListingRule.ListAccordingToSchedule.DayOfWeek,
--          AutomatedListingRule.ListAccordingToSchedule.ListingPeriodInWeeks,
--          AutomatedListingRule.ListAccordingToSchedule.ListAtSpecificTimeOfDay,
--          AutomatedListingRule.ListAccordingToSchedule.StartTime,
--          AutomatedListingRule.ListAccordingToSchedule.EndTime,
--          AutomatedListingRule.ListAccordingToSchedule.MaxActiveItemCount,
--          AutomatedListingRule.ListAccordingToSchedule.ListingHoldInventoryLevel,
--          AutomatedRelistingRule.Type, AutomatedRelistingRule.RelistCondition,
--          AutomatedRelistingRule.RelistAfterDays, AutomatedRelistingRule.RelistAfterHours,
--          AutomatedRelistingRule.BestOfferDetails.BestOfferEnabled,
--          AutomatedRelistingRule.ListingHoldInventoryLevel,
--          AutomatedSecondChanceOfferRule.SecondChanceOfferCondition,
--          AutomatedSecondChanceOfferRule.Amount, AutomatedSecondChanceOfferRule.ProfitPercent,
--          AutomatedSecondChanceOfferRule.Duration,
--          AutomatedSecondChanceOfferRule.ListingHoldInventoryLevel
create table ebay.trading.SetSellingManagerTemplateAutomationRule
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetSellingManagerTemplateAutomationRule',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetSellingManagerTemplateAutomationRuleResponse'
     with arrays 'Fees.Fee', '..Errors', '..ErrorParameters', '..DayOfWeek'
