-- Get hazardous materials labels
-- GET /marketplace/{marketplace_id}/get_hazardous_materials_labels (operation getHazardousMaterialsLabels).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^marketplace_id (path)
create table ebay.sell.metadata.getHazardousMaterialsLabels
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/metadata/v1/marketplace/{^marketplace_id}/get_hazardous_materials_labels"
     using patch '../../rest.py'
     using auth 'ebay.app'
