-- A form-urlencoded body template is a URI template: values are percent-encoded.
-- verb: insert
-- values: {"user": "ann@example.com", "comment": "5 stars, would buy again!"}
create table shop.review
  on insert post to "{config.base}/reviews"
     using bodyTemplate 'files/review.form' type 'application/x-www-form-urlencoded'
