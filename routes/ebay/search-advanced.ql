-- Advanced search by keywords and/or category: /ebay/finding/advanced?keywords=iphone&categoryid=9355
found = select * from ebay.finding.findItemsAdvanced
        where keywords = "{keywords}" and categoryId = "{category}" and descriptionSearch = "{description}"
          and paginationInput.entriesPerPage = "{entries}" and paginationInput.pageNumber = "{page}"
          and sortOrder = "{sort}";
return {"items": "{found.searchResult.item}", "pagination": "{found.paginationOutput}"}
  via route '/ebay/finding/advanced?keywords={keywords}&categoryid={category}&descriptionsearch={description}&entriesperpage={entries}&pagenumber={page}&sortorder={sort}'
  with optional params using method get;
