"""Shared by every eBay REST table (tables/ebay/{buy,commerce,developer,sell}/…):
optional query parameters and headers without a value are not sent, a required
header without one is an error naming its column (qlgate/openapi/runtime.py), and
an answer with eBay's ``errors[]`` becomes a statement error carrying the HTTP
status, errorId and message (qlgate/ebay/rest_status.py); ``warnings[]`` on a
success stay a success."""

from qlgate.ebay import rest_status
from qlgate.openapi import runtime

patch_uri = runtime.patch_uri
patch_headers = runtime.patch_headers


def patch_status(ctx):
    return rest_status.check_status(ctx.table.name, ctx.status, ctx.body)
