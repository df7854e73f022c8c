-- Get transfer
-- GET /transfer/{transfer_Id} (operation getTransfer).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.finances).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^transfer_Id (path)
create table ebay.sell.finances.getTransfer
  on select get from "{config.tables.ebay.rest.hosts.apiz}/sell/finances/v1/transfer/{^transfer_Id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
