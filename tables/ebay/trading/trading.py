"""Shared by every Trading table: the request XML is built from the statement's
dotted columns in the call's schema order (schema.json beside this file), and
a response with Ack=Failure becomes a statement error carrying eBay's errors.
An opaque body (insert … values ('<…Request>')) goes out as written, except that
one without RequesterCredentials gets the configured token (qlgate.ebay.patches). With
config tables.ebay.trading.auth naming an OAuth credential, calls carry its user token
in X-EBAY-API-IAF-TOKEN instead."""

from pathlib import Path

from qlgate.ebay import patches

SERVICE = patches.Service(Path(__file__).with_name("schema.json"))


def patch_uri(ctx):
    return patches.strip_trailing_question_mark(ctx.uri)


def patch_body(ctx):
    return SERVICE.body(ctx)


def patch_status(ctx):
    return patches.check_ack(ctx)


async def patch_headers(ctx):
    return await patches.iaf_headers(ctx)
