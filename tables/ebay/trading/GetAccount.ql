-- Return seller account activity, invoices and balances.
-- eBay Trading GetAccount: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: AccountHistorySelection, InvoiceDate, BeginDate, EndDate, Pagination.EntriesPerPage,
--          Pagination.PageNumber, ExcludeBalance, ExcludeSummary, IncludeConversionRate,
--          AccountEntrySortType, Currency, ItemID
create table ebay.trading.GetAccount
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetAccount'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetAccountResponse'
     with arrays 'AccountEntries.AccountEntry', '..Errors', '..ErrorParameters',
                 '..AdditionalAccount'
