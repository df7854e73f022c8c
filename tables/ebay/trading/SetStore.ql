-- Change eBay Store configuration.
-- eBay Trading SetStore: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Store.Name, Store.URLPath, Store.URL, Store.SubscriptionLevel, Store.Description,
--          Store.Logo.LogoID, Store.Logo.Name, Store.Logo.URL, Store.Theme.ThemeID,
--          Store.Theme.Name, Store.Theme.ColorScheme.ColorSchemeID, Store.Theme.ColorScheme.Name,
--          Store.Theme.ColorScheme.Color.Primary, Store.Theme.ColorScheme.Color.Secondary,
--          Store.Theme.ColorScheme.Color.Accent, Store.Theme.ColorScheme.Font.NameFace,
--          Store.Theme.ColorScheme.Font.NameSize, Store.Theme.ColorScheme.Font.NameColor,
--          Store.Theme.ColorScheme.Font.TitleFace, Store.Theme.ColorScheme.Font.TitleSize,
--          Store.Theme.ColorScheme.Font.TitleColor, Store.Theme.ColorScheme.Font.DescFace,
--          Store.Theme.ColorScheme.Font.DescSize, Store.Theme.ColorScheme.Font.DescColor,
--          Store.HeaderStyle, Store.HomePage, Store.ItemListLayout, Store.ItemListSortOrder,
--          Store.CustomHeaderLayout, Store.CustomHeader, Store.ExportListings,
--          Store.CustomListingHeader.DisplayType, Store.CustomListingHeader.Logo,
--          Store.CustomListingHeader.SearchBox, Store.CustomListingHeader.LinkToInclude.LinkID,
--          Store.CustomListingHeader.LinkToInclude.Order,
--          Store.CustomListingHeader.LinkToInclude.LinkType,
--          Store.CustomListingHeader.AddToFavoriteStores,
--          Store.CustomListingHeader.SignUpForStoreNewsletter, Store.LastOpenedTime,
--          … (1 more in schema.json)
create table ebay.trading.SetStore
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetStore'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetStoreResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetStore'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetStoreResponse'
     with arrays '..Errors', '..ErrorParameters'
