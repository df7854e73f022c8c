-- Category search: /ebay/finding/category?categoryid=9355&entriesperpage=10&pagenumber=1
found = select * from ebay.finding.findItemsByCategory
        where categoryId = "{category}" and paginationInput.entriesPerPage = "{entries}"
          and paginationInput.pageNumber = "{page}" and sortOrder = "{sort}";
return {"items": "{found.searchResult.item}", "pagination": "{found.paginationOutput}"}
  via route '/ebay/finding/category?categoryid={^category}&entriesperpage={entries}&pagenumber={page}&sortorder={sort}'
  with optional params using method get;
