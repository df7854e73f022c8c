a = insert "{listing}" into ebay.trading.AddItem timeout 2000
b = insert into bucket.objects values ("{body}") with parts "{p1}", "{p2}"
