"""What may stand in an HTTP header (a "field", RFC 9110 §5): a name that is a
token, a value without control characters but tab. Checked wherever a header
is built from something other than the gateway's own code (a table's
``using headers``, a patch, a caller's script, a route) and once more where a
request or an answer is written: a name such as ``Host: admin.internal``
would otherwise put a second header on the wire, past every list of headers
a caller may not set."""

from __future__ import annotations

import re

# RFC 9110 §5.1 and §5.6.2: field-name = token; tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*"
# / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")
# CR and LF would end a header and start another (header injection); every other control
# character but tab is refused as well
UNSAFE_IN_FIELD = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")

_verdicts: dict[str, bool] = {}  # names seen: the same few, request after request


def is_field_name(name: str) -> bool:
    """Is ``name`` an RFC 9110 token (so it can be sent as a header's name)?"""
    verdict = _verdicts.get(name)
    if verdict is None:
        verdict = bool(_TOKEN.match(name))
        if len(_verdicts) < 4096:
            _verdicts[name] = verdict
    return verdict
