-- Return public, buyer-facing data for one listing.
-- eBay Shopping GetSingleItem: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Example: select Item from ebay.shopping.GetSingleItem where ItemID = "230851234561"
-- Columns: apikey, siteid, MessageID, IncludeSelector, ItemID, VariationSKU
create table ebay.shopping.GetSingleItem
  on select get from "{config.tables.ebay.shopping.gateway}?callname=GetSingleItem&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&IncludeSelector={IncludeSelector}&ItemID={^ItemID}&VariationSKU={VariationSKU}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}"
     using patch 'shopping.py'
     with arrays '..Errors', '..ErrorParameters', '..PaymentMethods', '..PictureURL',
                 '..ShipToLocations', '..NameValueList', '..NameValueList.Value',
                 '..PaymentAllowedSite', '..Variation', '..VariationSpecifics', '..Pictures',
                 '..VariationSpecificPictureSet', '..ExcludeShipToLocation', '..Compatibility'
