-- fan-out: one call per value of a list, up to 4 of them, joined with the outer select
ids = select searchResult.item.itemId from finding.items where keywords = "camera";
details = select * from shopping.GetSingleItem where itemId in ("{4|ids}");
return select d.Title, i.title from details as d, finding.items as i where d.ItemID = i.itemId
