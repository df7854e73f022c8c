-- Return the status of VeRO reports.
-- eBay Trading GetVeROReportStatus: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: VeROReportPacketID, ItemID, IncludeReportedItemDetails, TimeFrom, TimeTo,
--          Pagination.EntriesPerPage, Pagination.PageNumber
create table ebay.trading.GetVeROReportStatus
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetVeROReportStatus'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetVeROReportStatusResponse'
     with arrays 'ReportedItemDetails.ReportedItem', '..Errors', '..ErrorParameters'
