"""How a table call's answer is read (spec §10.6–§10.8): the body decoded by its
charset, transformed by its media type (JSON, XML, CSV, text), the patch hooks
that may replace each step, the status checked, the result set selected and
brought to the shape the table declares (``with arrays``: the paths that are
always lists, so one hit and several look alike).

``http/`` moves bytes and knows codecs; this knows what a table's answer means.
Secrets a request carried are masked where an upstream could echo them into a
caller's script.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..config import Secrets
from ..errors import TransformError, UpstreamError
from ..lang.paths import resultset as select_resultset
from .call import CallHooks
from .params import ParamView

if TYPE_CHECKING:
    from ..http.client import HttpResponse
    from ..http.codecs import TransformFailure

# answers of this many bytes and more are decoded off the event loop: a 9 MB JSON answer
# takes tens of milliseconds to decode, and fifty of them at once held the loop (and every
# other request of the process) for seconds
OFF_LOOP_BYTES = 512 * 1024
_decoder: list[ThreadPoolExecutor] = []


async def off_loop(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` on the process's one decoder thread. One, kept: big answers decode one
    after another, so the loop waits at most for one decode's hold of the GIL between
    turns, and never for a new thread to start (which waits for the GIL as well)."""
    if not _decoder:
        _decoder.append(ThreadPoolExecutor(1, thread_name_prefix="qlgate-decode"))
    return await asyncio.get_running_loop().run_in_executor(_decoder[0], fn, *args)


_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_UNREAD = object()  # no reader of a shared answer has decoded it yet

# Set to a list by the test suite (tests/conftest.py): every decoded body a shared answer's
# readers could share, with its snapshot and table, so that each test can check that no
# run changed one in place (which, shared, would change another caller's result)
shared_bodies: list[tuple[Any, str, str]] | None = None


async def read_answer(
    response: HttpResponse,
    view: ParamView,
    hooks: CallHooks,
    secrets: Secrets,
    *,
    mask_echoes: bool = False,
    share: bool = False,
) -> Any:
    """The result set of one answer, or a typed error: ``UpstreamError`` for a status
    outside 2xx, ``TransformError`` for a body that cannot be read as its type.
    ``mask_echoes``: mask secrets inside the answer itself (a caller's script reads it).
    ``share``: the tree may be one decoded for another reader of the same answer
    (``Engine.run_compiled``'s ``shares_answers``)."""
    mapping, name = hooks.mapping, hooks.table.name
    has_patch = hooks.patch is not None  # most tables have no patch: one test for all five hooks
    headers = response.headers
    # the readers of one shared answer (single flight) decode it once and share the tree:
    # nothing after this changes a value in place (what changes is copied: tables/shapes.py,
    # the engine), the runs that share only read their results and hand no value to deployer
    # code (``Compiled.shareable``). Not where a patch could change it, nor where this
    # reader's echoed secrets are masked
    shared = response.shared if share and not (has_patch or mask_echoes) else None
    body: Any = _UNREAD if shared is None else shared.get("body", _UNREAD)
    failure: TransformFailure | None = None
    if body is _UNREAD:
        codecs = _codecs()
        text: str | None = None
        content_type = headers.get("content-type")
        if has_patch and hooks.has("parse_response"):
            parsed = await hooks.call(
                "parse_response", view, uri=response.url, status=response.status, headers=headers, body=response.body
            )
            if isinstance(parsed, dict):
                text = parsed.get("content")
                content_type = parsed.get("type") or content_type
            elif isinstance(parsed, str):
                text = parsed
        essence, mparams = codecs.parse_media_type(content_type)
        big = len(response.body) >= OFF_LOOP_BYTES
        if text is None:
            try:
                if big:
                    text = await off_loop(codecs.decode_text, response.body, mparams.get("charset"))
                else:
                    text = codecs.decode_text(response.body, mparams.get("charset"))
            except codecs.CharsetError as e:  # as for a failed transformation, the status still decides (§10.7)
                failure, text = e, response.body.decode("utf-8", errors="replace")
        if mask_echoes:
            # an upstream that echoes a credential a table sent must not hand it to a caller's
            # script, where comparisons and filters could read it without ever printing it
            text = secrets.mask(text)
        if has_patch and hooks.has("patch_media_type"):
            override = await hooks.call(
                "patch_media_type", view, uri=response.url, status=response.status, headers=headers, body=text
            )
            if isinstance(override, str) and override:
                essence, mparams = codecs.parse_media_type(override)
        body = text
        if failure is None:
            try:
                if big:  # decoded on the decoder thread, so the loop serves others meanwhile
                    body = await off_loop(codecs.transform, text, essence, mparams)
                else:
                    body = codecs.transform(text, essence, mparams)
            except codecs.TransformFailure as e:
                failure = e
            else:
                if mask_echoes and _has_escapes(text):
                    # JSON and XML escapes (\u0041, \/, &#65;) can spell a secret the text
                    # above did not show: mask the values they decoded to as well
                    body = secrets.mask_value(body)
                elif not has_patch and not mask_echoes:
                    if shared is not None:
                        shared["body"] = body
                    if shared_bodies is not None:
                        shared_bodies.append((body, _snapshot(body), name))
    status = response.status
    if has_patch and hooks.has("patch_status"):
        patched = await hooks.call("patch_status", view, uri=response.url, status=status, headers=headers, body=body)
        if isinstance(patched, int) and not isinstance(patched, bool):
            status = patched
    if not 200 <= status < 300:
        masked_uri = secrets.mask(response.url)  # only an error names the URI: not masked per answer
        raise UpstreamError(
            f"{name}: upstream answered {status} for {mapping.method.upper()} {masked_uri}",
            status=status,
            uri=masked_uri,
            body=secrets.mask_value(body),
        )
    if failure is not None:
        masked_uri = secrets.mask(response.url)
        raise TransformError(
            f"{name}: cannot read the {essence} response of {masked_uri}: {failure}",
            uri=masked_uri,
            body=secrets.mask((text or "")[:2000]),
        )
    if has_patch and hooks.has("patch_response"):
        replaced = await hooks.call("patch_response", view, uri=response.url, status=status, headers=headers, body=body)
        if replaced is not None:
            body = replaced
    result = select_resultset(body, mapping.resultset)
    # one hit or several, the declared lists are arrays (``with arrays``, tables.shapes)
    return mapping.arrays.apply(result) if mapping.arrays else result


@cache
def _codecs() -> ModuleType:
    """The codecs (lxml among them), imported by the first answer, not with the engine;
    once (an import statement per answer costs half a microsecond)."""
    from ..http import codecs

    return codecs


def _has_escapes(text: str) -> bool:
    """Could decoding have spelled out text the raw answer did not show? Plain substring
    tests first: a regex over a whole answer costs some 30 µs per 6 KB."""
    return "\\" in text or "&#" in text or ("%" in text and _PERCENT_ESCAPE.search(text) is not None)


def _snapshot(body: Any) -> str:
    """What a shared body holds, to compare after the test (``shared_bodies``)."""
    return repr(body)
