-- Return VeRO reason codes.
-- eBay Trading GetVeROReasonCodeDetails: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ReasonCodeID, ReturnAllSites
create table ebay.trading.GetVeROReasonCodeDetails
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetVeROReasonCodeDetails'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetVeROReasonCodeDetailsResponse'
     with arrays 'VeROReasonCodeDetails.VeROSiteDetail', '..Errors', '..ErrorParameters',
                 '..ReasonCodeDetail'
