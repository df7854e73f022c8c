-- List an item using a saved Selling Manager template.
-- eBay Trading AddItemFromSellingManagerTemplate: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: SaleTemplateID, ScheduleTime, Item.CategoryMappingAllowed, Item.PaymentMethods,
--          Item.PayPalEmailAddress, Item.ItemCompatibilityList.Compatibility.NameValueList.Name,
--          Item.ItemCompatibilityList.Compatibility.NameValueList.Value,
--          Item.ItemCompatibilityList.Compatibility.CompatibilityNotes, Item.ConditionID
create table ebay.trading.AddItemFromSellingManagerTemplate
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddItemFromSellingManagerTemplate'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddItemFromSellingManagerTemplateResponse'
     with arrays 'Fees.Fee', '..Errors', '..ErrorParameters'
