items = select title as t, price.value as p, "shipping-cost".value as s
        from shop.search
        where q = "boots" and max = 20 and format = JSON
        limit 10 offset 5;
