-- SQL habit: there is no or; the message says what to write instead
hits = select title from ebay.buy.browse.search
       where q = "camera" or q = "lens";
return hits;
