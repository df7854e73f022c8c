-- Return status (price, bid count, end time, listing status) for up to 20 items.
-- eBay Shopping GetItemStatus: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Columns: apikey, version, siteid, MessageID, ItemID
create table ebay.shopping.GetItemStatus
  on select get from "{config.tables.ebay.shopping.gateway}?callname=GetItemStatus&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&ItemID={20|^ItemID}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}",
                    MaxEntries = "5"
     using patch 'shopping.py'
     with arrays 'Item', '..Errors', '..ErrorParameters', '..PaymentMethods', '..PictureURL',
                 '..ShipToLocations', '..NameValueList', '..NameValueList.Value',
                 '..PaymentAllowedSite', '..Variation', '..VariationSpecifics', '..Pictures',
                 '..VariationSpecificPictureSet', '..ExcludeShipToLocation', '..Compatibility'
