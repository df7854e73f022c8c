-- A user's public profile (Shopping GetUserProfile): /ebay/users/testuser_magicalbookseller
profile = select User from ebay.shopping.GetUserProfile where UserID = "{userId}" and IncludeSelector = "{include}";
return "{profile}"
  via route '/ebay/users/{userId}?include={include}' with optional params using method get;
