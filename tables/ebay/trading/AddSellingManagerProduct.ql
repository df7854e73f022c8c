-- Create a Selling Manager product (container for listing templates and stock).
-- eBay Trading AddSellingManagerProduct: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: SellingManagerProductDetails.CustomLabel,
--          SellingManagerProductDetails.QuantityAvailable, SellingManagerProductDetails.UnitCost,
--          FolderID, SellingManagerProductSpecifics.PrimaryCategoryID,
--          SellingManagerProductSpecifics.Variations.Variation.SKU,
--          SellingManagerProductSpecifics.Variations.Variation.StartPrice,
--          SellingManagerProductSpecifics.Variations.Variation.Quantity,
--          SellingManagerProductSpecifics.Variations.Variation.VariationSpecifics.NameValueList.Name,
--          SellingManagerProductSpecifics.Variations.Variation.VariationSpecifics.NameValueList.Value,
--          SellingManagerProductSpecifics.Variations.Variation.UnitsAvailable,
--          SellingManagerProductSpecifics.Variations.Variation.UnitCost,
--          SellingManagerProductSpecifics.Variations.Pictures.VariationSpecificName,
--          SellingManagerProductSpecifics.Variations.Pictures.VariationSpecificPictureSet.VariationSpecificValue,
--          SellingManagerProductSpecifics.Variations.Pictures.VariationSpecificPictureSet.PictureURL,
--          SellingManagerProductSpecifics.Variations.VariationSpecificsSet.NameValueList.Name,
--          SellingManagerProductSpecifics.Variations.VariationSpecificsSet.NameValueList.Value,
--          SellingManagerProductSpecifics.ItemSpecifics.NameValueList.Name,
--          SellingManagerProductSpecifics.ItemSpecifics.NameValueList.Value
create table ebay.trading.AddSellingManagerProduct
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddSellingManagerProduct',
                   'X-EBAY-API-APP-NAME' = '{config.tables.ebay.trading.appname}',
                   'X-EBAY-API-DEV-NAME' = '{config.tables.ebay.trading.devname}',
                   'X-EBAY-API-CERT-NAME' = '{config.tables.ebay.trading.certname}'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddSellingManagerProductResponse'
     with arrays '..Errors', '..ErrorParameters'
