-- Return Half.com seller payments (legacy).
-- eBay Trading GetSellerPayments: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: PaymentStatus, PaymentTimeFrom, PaymentTimeTo, Pagination.EntriesPerPage,
--          Pagination.PageNumber
create table ebay.trading.GetSellerPayments
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSellerPayments'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSellerPaymentsResponse'
     with arrays 'SellerPayment', '..Errors', '..ErrorParameters'
