"""Shared by every table imported from 'Weather Stations' (``qlgate import openapi``): optional
query parameters and headers without a value are not sent, a required header without
one is an error naming its column, and an API paging by page number gets its page from
the statement's offset. The logic lives in qlgate/openapi/runtime.py."""

from qlgate.openapi import runtime

patch_uri = runtime.patch_uri
patch_headers = runtime.patch_headers
