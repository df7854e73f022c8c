-- Upload evidence file
-- POST /payment_dispute/{payment_dispute_id}/upload_evidence_file (operation uploadEvidenceFile).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.payment.dispute).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payment_dispute_id (path)
create table ebay.sell.fulfillment.uploadEvidenceFile
  on insert post to "{config.tables.ebay.rest.hosts.apiz}/sell/fulfillment/v1/payment_dispute/{^payment_dispute_id}/upload_evidence_file"
     using headers 'Content-Type' = 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
