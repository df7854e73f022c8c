"""Large results over HTTP: ``Accept: application/x-ndjson`` answers a result row by
row, one JSON value per line, instead of one JSON document.

Why: a 50 MB result sent as one document is encoded into one 50 MB buffer (and a
compressed copy) before its first byte leaves, and a client must hold all of it
before it can parse any. As NDJSON the rows are encoded a batch at a time
(``BATCH_BYTES``) as the client reads them — the connection waits while the
client's socket is full (``Connection``'s flow control) — so the gateway holds the
result and one batch, never a second copy of the whole; the client parses each
line as it comes. The result itself is whole before its first row goes (the engine
completes a script's value before it is answered): its peak is the decoding of the
upstream's answers, which ``bench/ndjson_memory.py`` shows.

A list is sent one element per line; any other value (an object, a scalar) as one
line; no value (``MISSING``) as no line. The answer is ``Transfer-Encoding:
chunked`` (HTTP/1.0: until the connection closes). Errors found before the first
byte are the usual JSON error answer with its status.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import AsyncGenerator, Iterator
from typing import Any

from ..config import Secrets
from ..values import MISSING, dump_json_bytes
from .request import Request
from .response import SERVER, Response

NDJSON = "application/x-ndjson"
BATCH_BYTES = 64 * 1024  # encoded rows gathered into one chunk: few writes, little held
COMPRESS_LEVEL = 6


def wants_ndjson(request: Request) -> bool:
    """Does the client's ``Accept`` prefer NDJSON (``application/x-ndjson`` or
    ``application/ndjson``) to JSON? Equal weights: NDJSON, which the client named."""
    accept = request.headers.get("Accept")
    if not accept or "ndjson" not in accept:
        return False
    weights: dict[str, float] = {}
    for item in accept.split(","):
        kind, _, params = item.partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights[kind.strip().lower()] = q
    ndjson = max(weights.get(NDJSON, 0.0), weights.get("application/ndjson", 0.0))
    return ndjson > 0 and ndjson >= weights.get("application/json", 0.0)


def value_rows(value: Any) -> Iterator[Any]:
    """The rows of a result: a list's elements, else the value itself (none when missing)."""
    if isinstance(value, list):
        yield from value
    elif value is not MISSING:
        yield value


def stored_rows(data: bytes) -> Iterator[bytes]:
    """The rows of a result stored as JSON bytes (a job's, in the cluster's database),
    each as its own compact JSON text, found one at a time: the stored document is
    never decoded into a tree whole. Stored results are compact JSON, so a row's text
    has no line break (a string's are escaped)."""
    text = data.decode("utf-8")
    decoder = json.JSONDecoder()
    start = _skip_space(text, 0)
    if not text.startswith("[", start):
        yield dump_json_bytes(json.loads(text))  # one value: one line
        return
    index = _skip_space(text, start + 1)
    if text.startswith("]", index):
        return
    while True:
        row, end = decoder.raw_decode(text, index)
        piece = text[index:end]
        # compact as stored (a string's line breaks are escapes); written otherwise, made so
        yield piece.encode("utf-8") if "\n" not in piece else dump_json_bytes(row)
        index = _skip_space(text, end)
        if text.startswith(",", index):
            index = _skip_space(text, index + 1)
            continue
        return  # the closing ``]``


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return index


async def _batches(rows: Iterator[Any], secrets: Secrets | None, encoded: bool) -> AsyncGenerator[bytes, None]:
    """Rows as lines, ``BATCH_BYTES`` at a time; between batches the event loop serves others."""
    batch = bytearray()
    for row in rows:
        line = row if encoded else dump_json_bytes(row)
        batch += secrets.mask_bytes(line) if secrets is not None else line
        batch += b"\n"
        if len(batch) >= BATCH_BYTES:
            yield bytes(batch)
            batch.clear()
            await asyncio.sleep(0)  # a long result does not keep other requests waiting
    if batch:
        yield bytes(batch)


async def compressed(chunks: AsyncGenerator[bytes, None], coding: str) -> AsyncGenerator[bytes, None]:
    """``chunks`` gzipped or deflated as they come, each flushed, so that a client
    reads the rows as they are sent (the pipeline's choice of ``coding``)."""
    compressor = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, 31 if coding == "gzip" else 15)
    async for chunk in chunks:
        out = compressor.compress(chunk) + compressor.flush(zlib.Z_SYNC_FLUSH)
        if out:
            yield out
    yield compressor.flush()


def ndjson_response(
    rows: Iterator[Any],
    *,
    headers: dict[str, str] | None = None,
    secrets: Secrets | None = None,
    encoded: bool = False,
) -> Response:
    """An answer that streams ``rows`` (values, or ``encoded`` JSON texts) as NDJSON
    (the pipeline compresses it as the client asks)."""
    response = Response(b"", 200, f"{NDJSON}; charset=utf-8", headers)
    response.headers["Server"] = SERVER
    response.headers["X-Powered-By"] = SERVER
    response.stream = _batches(rows, secrets, encoded)
    return response
