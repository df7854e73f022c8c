-- Return the seller's order line items in a time window.
-- eBay Trading GetSellerTransactions: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ModTimeFrom, ModTimeTo, Pagination.EntriesPerPage, Pagination.PageNumber,
--          IncludeFinalValueFee, IncludeContainingOrder, SKUArray.SKU, Platform, NumberOfDays,
--          InventoryTrackingMethod
create table ebay.trading.GetSellerTransactions
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSellerTransactions'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSellerTransactionsResponse'
