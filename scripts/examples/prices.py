"""UDFs for the language reference's examples (docs/language.md): a where-clause
filter, a column function and a value function."""


def keep_under(ctx, price, limit):
    """A where condition: keep the row when its price is under the limit."""
    return ctx.row if price is not None and float(price) < limit else None


def money(ctx, value, currency):
    """A column: "149.00 USD" from a Browse price's value and currency."""
    return f"{value} {currency}"


def count(ctx, rows):
    """A value: how many rows a variable holds."""
    return len(rows or [])
