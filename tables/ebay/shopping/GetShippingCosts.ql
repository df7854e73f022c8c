-- Return shipping cost estimates for an item to a destination.
-- eBay Shopping GetShippingCosts: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Columns: apikey, version, siteid, MessageID, DestinationCountryCode, DestinationPostalCode,
--          IncludeDetails, ItemID, QuantitySold
create table ebay.shopping.GetShippingCosts
  on select get from "{config.tables.ebay.shopping.gateway}?callname=GetShippingCosts&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&DestinationCountryCode={DestinationCountryCode}&DestinationPostalCode={DestinationPostalCode}&IncludeDetails={IncludeDetails}&ItemID={^ItemID}&QuantitySold={QuantitySold}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}"
     using patch 'shopping.py'
     with arrays 'ShippingDetails.ShippingServiceOption', '..Errors', '..ErrorParameters',
                 '..InternationalShippingServiceOption', '..ShipsTo', '..TaxJurisdiction',
                 '..ExcludeShipToLocation'
