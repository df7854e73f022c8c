select title from details
where itemId in (select searchResult.item.itemId from finding where keywords = "ipad" limit 2)
  and site = 'US'
