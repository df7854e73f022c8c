-- Return public profile and feedback information about a user.
-- eBay Shopping GetUserProfile: GET with URL parameters (empty optional ones are dropped); answers JSON.
-- Example: select User from ebay.shopping.GetUserProfile where UserID = "testuser_magicalbookseller"
-- Columns: apikey, siteid, MessageID, IncludeSelector, UserID
create table ebay.shopping.GetUserProfile
  on select get from "{config.tables.ebay.shopping.gateway}?callname=GetUserProfile&appid={^apikey}&responseencoding=JSON&version={version}&siteid={^siteid}&MessageID={MessageID}&IncludeSelector={IncludeSelector}&UserID={^UserID}"
     using defaults apikey = "{config.tables.ebay.shopping.appid}",
                    siteid = "{config.tables.ebay.shopping.siteid}",
                    version = "{config.tables.ebay.shopping.version}",
                    MaxEntries = "5"
     using patch 'shopping.py'
     with arrays '..Errors', '..ErrorParameters', '..BidRetractionFeedbackPeriods',
                 '..NegativeFeedbackPeriods', '..NeutralFeedbackPeriods',
                 '..PositiveFeedbackPeriods', '..TotalFeedbackPeriods', '..AverageRatingDetails',
                 '..FeedbackDetails'
