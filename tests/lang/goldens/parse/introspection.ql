show tables
show routes
describe ebay.finding.findItemsByKeywords
desc route '/items/{id}' using method delete
