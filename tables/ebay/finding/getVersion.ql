-- Return the current version of the Finding service.
-- eBay Finding getVersion: GET with URL parameters; answers JSON.
create table ebay.finding.getVersion
  on select get from "{config.tables.ebay.finding.gateway}?OPERATION-NAME=getVersion&SECURITY-APPNAME={^apikey}&RESPONSE-DATA-FORMAT={format}"
     using defaults apikey = "{config.tables.ebay.finding.appname}",
                    format = "JSON"
     using patch 'finding.py'
     resultset 'getVersionResponse.version'
