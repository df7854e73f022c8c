-- Table writes run in text order, each after the previous one; writes to a
-- variable are plain values and wait for nothing but their inputs.
user = {"id": "u1", "name": "Ann"};
insert into watch (item, user) values ("42", "{user.id}");
update watch with "{user}";
copy = insert into user (name) values ("Bo");
delete from watch where item = "42";
return delete from watch where item = "43";
