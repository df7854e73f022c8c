"""Shared by every Shopping table: optional URL parameters left empty are
dropped (as ql.io's basic.js did), and Ack=Failure becomes a statement error."""

from qlgate.ebay import patches


def patch_uri(ctx):
    return patches.strip_trailing_question_mark(ctx.uri.remove_empty_params())


def patch_status(ctx):
    return patches.check_ack(ctx)
