"""Golden-file patch: scatters a URI over two regions and signs each request."""


def patch_uri(ctx):
    return [ctx.uri.format() + "&region=eu", ctx.uri.format() + "&region=us"]


def patch_headers(ctx):
    headers = dict(ctx.headers)
    headers["x-signature"] = "sig:" + str(len(ctx.uri.format()))
    return headers


def patch_body(ctx):
    raise AssertionError("a GET sends no body")
