-- Update evidence
-- POST /payment_dispute/{payment_dispute_id}/update_evidence (operation updateEvidence).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.payment.dispute).
-- Body (application/json) from the columns through updateEvidence.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payment_dispute_id (path), evidenceId, evidenceType, files, lineItems
create table ebay.sell.fulfillment.updateEvidence
  on insert post to "{config.tables.ebay.rest.hosts.apiz}/sell/fulfillment/v1/payment_dispute/{^payment_dispute_id}/update_evidence"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateEvidence.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
