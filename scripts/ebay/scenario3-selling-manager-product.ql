-- Scenario 3: dotted column names build the nested AddSellingManagerProduct body.
product = insert into ebay.trading.AddSellingManagerProduct
          (Version, RequesterCredentials.eBayAuthToken,
           SellingManagerProductDetails.ProductName,
           SellingManagerProductDetails.QuantityAvailable,
           SellingManagerProductDetails.FolderID)
          values ("737", "{config.tables.ebay.trading.eBayAuthToken}",
                  "Harry Potter Book4", "50", "4651612545");

productId = "{product.SellingManagerProductDetails.ProductID}";

return delete from ebay.trading.DeleteSellingManagerProduct
       where ProductID = "{^productId}";
