-- Extend the retention period of hosted pictures.
-- eBay Trading ExtendSiteHostedPictures: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: PictureURL, ExtensionInDays
create table ebay.trading.ExtendSiteHostedPictures
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ExtendSiteHostedPictures'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ExtendSiteHostedPicturesResponse'
     with arrays '..Errors', '..ErrorParameters'
