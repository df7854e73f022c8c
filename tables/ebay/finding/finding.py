"""Shared by every Finding table: POST tables get their request XML from the
statement's dotted columns in schema order (schema.json beside this file), with
limit/offset mapped onto paginationInput; ack=Failure and bare errorMessage
answers become statement errors carrying eBay's errors."""

from pathlib import Path

from qlgate.ebay import patches

SERVICE = patches.Service(Path(__file__).with_name("schema.json"))


def patch_uri(ctx):
    return patches.strip_trailing_question_mark(ctx.uri)


def patch_body(ctx):
    patches.page_from_offset(ctx)
    return SERVICE.body(ctx)


def patch_status(ctx):
    return patches.check_ack(ctx)
