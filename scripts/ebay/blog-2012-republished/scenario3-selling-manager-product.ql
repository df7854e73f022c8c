-- The 2012 post "ql.io APIs for eBay Marketplaces" as republished (tech.ebayinc.com,
-- innovation.ebayinc.com): scenario 3, Selling Manager product added then deleted (seller). Statements as in the post (only the unterminated
-- {itemid closed); the XML bodies are the post's sample data (ql.io-ebay-mp-apis test/inserttest.js).
result = insert into ebay.trading.AddSellingManagerProduct values ('<?xml version="1.0" encoding="utf-8"?>
<AddSellingManagerProductRequest xmlns="urn:ebay:apis:eBLBaseComponents">
<Version>737</Version>
<RequesterCredentials>
<eBayAuthToken>AgAAAA**AQAAAA**aAAAAA**HQ7MTw**nY+sHZ2PrBmdj6wVnY+sEZ2PrA2dj6wJnY+gD5iEqASdj6x9nY+seQ**tgAAAA**AAMAAA**cwQAqqrC/U2iO7gRA59MtUyHRcTVcPdhNmDsfCHf0YAWr3D3GYPmZMldTzVVf5OzY/BWljM1vasll03VN5FKGvtni4FdjZ0U9P1jSIHNcn5TWq1L7k+Le6CH60dSW+8+THdfenGt+cXBS4k55/dA7/xOF1Q04eNMJ4vENr7vykQ69AnEW70z77pDQnVWCUd9dqRiJ+JlP1ixpbG/eN5PEhEp13UXLSHkUxrUR6MxqEWfFlh/geTkhyCLYv8KOWEByC8soInlJaMlv9QY8LSxxgspHvyz8gRYYUg5xaIeyHBpC06mocl2vOZk07s1unWPynU2Hbp7zd+AK3i0Dsx8KUoVehygsCQywajVFFCyA18+mwi3E70efLbQVD8FsO9U0jlrie4S9nO7FlTGAwqbA2878VgjOWUdVqOnCsza0ft5r0Hwt/96aMMh17Cwn5EFD+eaVaAGl2WLFmGt7kFXnX/l+bIvjM0GbaftHKDM1YopPCnCqKKZrw9JKLmyoc5h0wHg5vEGOVfsfacSl+oNWi8sxKA5f+xwZqRa8oK749TBdNEtYvtXY6kAUFEcWfu9Y/0cqfDhZkMhCPgCKx/VIJNEuESOQqI+J7Gvwd0l8CfGqX7fjLs3Npzgy8IU5An5T+Ah7sdGXJQLK5dWQFYU0uC20FCAQiNBS5IcpzIdIAyqyEkA/0xdXq0PWBzf022syx06kA3TPErBpsLHIrKaxXXfj0cAbL15M5JwjEYF+CmBHoqJSrJvohhW9azNkurj</eBayAuthToken>
</RequesterCredentials>
<SellingManagerProductDetails>
<ProductName>Harry Potter Book4</ProductName>
<QuantityAvailable>50</QuantityAvailable>
<FolderID>4651612545</FolderID>
</SellingManagerProductDetails>
</AddSellingManagerProductRequest>');

prodID = "{result.SellingManagerProductDetails.ProductID}";

return delete from ebay.trading.DeleteSellingManagerProduct where ProductID = "{prodID}";
