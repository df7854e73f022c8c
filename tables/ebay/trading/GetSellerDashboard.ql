-- Return the seller dashboard (standards, discounts, policy compliance).
-- eBay Trading GetSellerDashboard: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
create table ebay.trading.GetSellerDashboard
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSellerDashboard'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSellerDashboardResponse'
     with arrays '..Errors', '..ErrorParameters', '..PowerSellerStatus.Alert',
                 '..BuyerSatisfaction.Alert', '..SellerAccount.Alert', '..Performance', '..Site'
