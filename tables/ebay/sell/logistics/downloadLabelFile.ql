-- Download label file
-- GET /shipment/{shipmentId}/download_label_file (operation downloadLabelFile).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.logistics).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^shipmentId (path)
create table ebay.sell.logistics.downloadLabelFile
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/logistics/v1_beta/shipment/{^shipmentId}/download_label_file"
     using patch '../../rest.py'
     using auth 'ebay.user'
