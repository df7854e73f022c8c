-- Keyword search: /ebay/finding/keywords?keywords=camera&entriesperpage=10
found = select * from ebay.finding.findItemsByKeywords
        where keywords = "{keywords}" and paginationInput.entriesPerPage = "{entries}"
          and sortOrder = "{sort}";
return {"items": "{found.searchResult.item}", "pagination": "{found.paginationOutput}"}
  via route '/ebay/finding/keywords?keywords={^keywords}&entriesperpage={entries}&sortorder={sort}'
  with optional params using method get;
