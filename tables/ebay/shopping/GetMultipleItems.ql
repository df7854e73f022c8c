-- Return public data for up to 20 listings in one call.
-- eBay Shopping GetMultipleItems: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Example: select Item from ebay.shopping.GetMultipleItems where ItemID in ("230851234561", "230851234562")
-- Columns: apikey, version, siteid, MessageID, IncludeSelector, ItemID
create table ebay.shopping.GetMultipleItems
  on select get from "{config.tables.ebay.shopping.gateway}?callname=GetMultipleItems&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&IncludeSelector={IncludeSelector}&ItemID={100|^ItemID}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}"
     using patch 'shopping.py'
     with arrays 'Item', '..Errors', '..ErrorParameters', '..PaymentMethods', '..PictureURL',
                 '..ShipToLocations', '..NameValueList', '..NameValueList.Value',
                 '..PaymentAllowedSite', '..Variation', '..VariationSpecifics', '..Pictures',
                 '..VariationSpecificPictureSet', '..ExcludeShipToLocation', '..Compatibility'
