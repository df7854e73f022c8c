-- Without a return, the value is the last statement's; a name that differs from
-- an assigned one only in case is reported, since it is most likely a typo.
shopName = "Ann's";
found = select * from items where shop = "{shopname}";
select title from found;
