select * from ebay.finding.findItemsByKeywords where keywords = "ipad"
