-- Contest payment dispute
-- POST /payment_dispute/{payment_dispute_id}/contest (operation contestPaymentDispute).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.payment.dispute).
-- Body (application/json) from the columns through contestPaymentDispute.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payment_dispute_id (path), note, returnAddress.addressLine1,
--          returnAddress.addressLine2, returnAddress.city, returnAddress.country,
--          returnAddress.county, returnAddress.fullName, returnAddress.postalCode,
--          returnAddress.primaryPhone.countryCode, returnAddress.primaryPhone.number,
--          returnAddress.stateOrProvince, revision
create table ebay.sell.fulfillment.contestPaymentDispute
  on insert post to "{config.tables.ebay.rest.hosts.apiz}/sell/fulfillment/v1/payment_dispute/{^payment_dispute_id}/contest"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'contestPaymentDispute.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
