-- Update schedule
-- PUT /schedule/{schedule_id} (operation updateSchedule).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.marketing https://api.ebay.com/oauth/api_scope/commerce.catalog.readonly https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- Body (application/json) from the columns through updateSchedule.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^schedule_id (path), preferredTriggerDayOfMonth, preferredTriggerDayOfWeek,
--          preferredTriggerHour, scheduleEndDate, scheduleName, scheduleStartDate, schemaVersion
create table ebay.sell.feed.updateSchedule
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/schedule/{^schedule_id}"
     using bodyTemplate 'updateSchedule.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
