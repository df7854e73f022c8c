-- Return a corrected spelling / recommended keyword string for a query.
-- eBay Finding getSearchKeywordsRecommendation: GET with URL parameters; answers JSON.
create table ebay.finding.getSearchKeywordsRecommendation
  on select get from "{config.tables.ebay.finding.gateway}?OPERATION-NAME=getSearchKeywordsRecommendation&SERVICE-VERSION=1.11.0&SECURITY-APPNAME={^apikey}&RESPONSE-DATA-FORMAT={format}&REST-PAYLOAD&keywords={^keywords}"
     using defaults apikey = "{config.tables.ebay.finding.appname}",
                    format = "JSON"
     using patch 'finding.py'
     resultset 'getSearchKeywordsRecommendationResponse'
     with arrays '..error', '..parameter'
