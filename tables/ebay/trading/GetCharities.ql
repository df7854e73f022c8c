-- Search eBay Giving Works charities.
-- eBay Trading GetCharities: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CharityID, CharityName, Query, CharityRegion, CharityDomain, IncludeDescription,
--          MatchType, Featured
create table ebay.trading.GetCharities
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetCharities'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetCharitiesResponse'
     with arrays 'Charity', '..Errors', '..ErrorParameters', '..CharityDomain',
                 '..NonProfitAddress', '..NonProfitSocialAddress'
