-- Add evidence
-- POST /payment_dispute/{payment_dispute_id}/add_evidence (operation addEvidence).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.payment.dispute).
-- Body (application/json) from the columns through addEvidence.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payment_dispute_id (path), evidenceType, files, lineItems
create table ebay.sell.fulfillment.addEvidence
  on insert post to "{config.tables.ebay.rest.hosts.apiz}/sell/fulfillment/v1/payment_dispute/{^payment_dispute_id}/add_evidence"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'addEvidence.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
