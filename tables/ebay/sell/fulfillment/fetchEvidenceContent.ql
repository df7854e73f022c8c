-- Fetch evidence content
-- GET /payment_dispute/{payment_dispute_id}/fetch_evidence_content (operation fetchEvidenceContent).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.payment.dispute).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payment_dispute_id (path), ^evidence_id (query), ^file_id (query)
create table ebay.sell.fulfillment.fetchEvidenceContent
  on select get from "{config.tables.ebay.rest.hosts.apiz}/sell/fulfillment/v1/payment_dispute/{^payment_dispute_id}/fetch_evidence_content?evidence_id={^evidence_id}&file_id={^file_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
