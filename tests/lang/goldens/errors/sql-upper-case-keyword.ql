-- SQL habit: keywords are lower case; the caret points at SELECT, not at the "*" after it
SELECT title FROM ebay.buy.browse.search WHERE q = "camera";
