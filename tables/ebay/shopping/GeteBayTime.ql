-- Return the official eBay system time (GMT).
-- eBay Shopping GeteBayTime: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Columns: apikey, version, siteid, MessageID
create table ebay.shopping.GeteBayTime
  on select get from "{config.tables.ebay.shopping.gateway}?callname=GeteBayTime&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}"
     using patch 'shopping.py'
     with arrays '..Errors', '..ErrorParameters'
