-- Return category and item-condition histograms (counts) for a category.
-- eBay Finding getHistograms: GET with URL parameters; answers JSON.
create table ebay.finding.getHistograms
  on select get from "{config.tables.ebay.finding.gateway}?OPERATION-NAME=getHistograms&SECURITY-APPNAME={^apikey}&RESPONSE-DATA-FORMAT={format}&categoryId={^categoryId}"
     using defaults apikey = "{config.tables.ebay.finding.appname}",
                    format = "JSON"
     using patch 'finding.py'
     resultset 'getHistogramsResponse'
     with arrays 'categoryHistogramContainer.categoryHistogram', '..error', '..parameter',
                 '..childCategoryHistogram', '..aspect', '..valueHistogram',
                 '..conditionHistogram'
