"""Heads (issue 29): what 300 clients that each send a maximum-size request head and stop
cost a gateway process in memory, and whether it is given back once they leave.

    python bench/heads.py [--connections 300] [--hold 5] [--after 3] [--config JSON] [--mmap-threshold BYTES]

Starts ``qlgate serve --workers 1`` (an empty tables dir, config ``{}``: the default gateway
settings, ``gateway.maxHeadBytes`` 64 MiB and ``gateway.maxConnections`` 1000, unless
``--config`` gives others) and reads its memory from ``/proc/PID/status`` (VmRSS now, VmHWM
the peak since start):

1. idle: after start-up and one ``/health`` — the baseline of the same run;
2. ``--connections`` clients each send a head as large as the gateway reads and never finish
   it: the request line of the longest ``/q`` script (``gateway.maxScriptLength`` 65,536
   characters, each percent-encoded UTF-8 of 9 bytes: ``%E2%82%AC``, within
   ``policy.max_request_line``) and header fields up to the per-head limit
   (``connection.MAX_HEADER_BYTES``, each field under ``MAX_FIELD_BYTES``), no blank line;
   held ``--hold`` seconds (well under the 30 s read deadline) while RSS is sampled and one
   ``/health`` is asked for (does it still serve?);
3. every client closes; ``--after`` seconds later RSS again, and ``/health`` again.

Printed: the head size, how many connections the gateway held and how many it refused (a 503
once its head budget is spent), idle / peak / after RSS, the peak over idle (target: peak
≤ 300 MB) and how much of the rise was given back after close.

``--mmap-threshold BYTES`` starts the gateway with ``MALLOC_MMAP_THRESHOLD_`` set (glibc): a
fixed threshold, where glibc otherwise raises it after freeing large blocks, so that later
large buffers (heads of ~650 KB) come from the heap and stay in the process after they are freed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gateway import free_port, serve_command, stop_all, wait  # noqa: E402

from qlgate.server.policy import GatewayPolicy  # noqa: E402
from qlgate.server.reader import MAX_FIELD_BYTES, MAX_HEADER_BYTES  # noqa: E402

MB = 1024 * 1024


def status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of ``pid``, bytes."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) * 1024
    return found


def max_head(policy: GatewayPolicy) -> bytes:
    """The largest unfinished head the gateway reads: request line and header fields, no blank line."""
    char = "%E2%82%AC"  # €: 3 bytes of UTF-8, 9 percent-encoded
    line = ("GET /q?s=" + char * policy.max_script_length + " HTTP/1.1\r\n").encode()
    assert len(line) <= policy.max_request_line, (len(line), policy.max_request_line)
    fields = [b"Host: 127.0.0.1\r\n"]
    used = len(fields[0])
    n = 0
    while True:
        value_len = min(MAX_FIELD_BYTES - 16, MAX_HEADER_BYTES - used - 32)
        if value_len < 64:
            break
        field = f"X-Pad-{n}: ".encode() + b"a" * value_len + b"\r\n"
        fields.append(field)
        used += len(field)
        n += 1
    return line + b"".join(fields)


def health(port: int) -> str:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as answer:
            return f"{answer.status} in {(time.monotonic() - started) * 1000:.0f} ms"
    except OSError as error:
        return f"failed ({error})"


async def hold(port: int, head: bytes, count: int, seconds: float, pid: int) -> dict:
    """Open ``count`` connections, send ``head`` on each, hold them ``seconds``; RSS sampled meanwhile."""
    held: list[asyncio.StreamWriter] = []
    readers: list[asyncio.StreamReader] = []
    refused = 0

    async def one() -> None:
        nonlocal refused
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            refused += 1
            return
        held.append(writer)
        readers.append(reader)
        writer.write(head)
        try:
            await asyncio.wait_for(writer.drain(), 20)
        except (TimeoutError, OSError):
            pass

    started = time.monotonic()
    await asyncio.gather(*(one() for _ in range(count)))
    sent_s = time.monotonic() - started
    peak_rss = 0
    probe = None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        peak_rss = max(peak_rss, status(pid)["VmRSS"])
        if probe is None and time.monotonic() - started > 1:
            probe = await asyncio.get_running_loop().run_in_executor(None, health, port)
        await asyncio.sleep(0.1)
    # who was answered (a 503 for want of head budget) and closed, who is still held
    answered = closed = 0
    for reader in readers:
        try:
            data = await asyncio.wait_for(reader.read(200), 0.01)
        except TimeoutError:
            continue
        except OSError:
            closed += 1
            continue
        if data.startswith(b"HTTP/1.1 503"):
            answered += 1
        elif not data:
            closed += 1
    still_open = len(readers) - answered - closed
    for writer in held:
        writer.close()
    for writer in held:
        try:
            await asyncio.wait_for(writer.wait_closed(), 1)
        except (TimeoutError, OSError):
            pass
    return {
        "sent_s": sent_s,
        "peak_rss_sampled": peak_rss,
        "answered_503": answered,
        "closed": closed,
        "held": still_open,
        "connect_failed": refused,
        "health": probe,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=300)
    parser.add_argument("--hold", type=float, default=5.0, help="seconds the heads are held (under 30)")
    parser.add_argument("--after", type=float, default=3.0, help="seconds after close before RSS is read again")
    parser.add_argument("--config", default="{}", help="the gateway's config, JSON (default {})")
    parser.add_argument("--mmap-threshold", type=int, help="MALLOC_MMAP_THRESHOLD_ for the gateway (glibc)")
    args = parser.parse_args()
    print(
        f"command: python bench/heads.py --connections {args.connections} --hold {args.hold} --after {args.after}"
        + (f" --config '{args.config}'" if args.config != "{}" else "")
        + (f" --mmap-threshold {args.mmap_threshold}" if args.mmap_threshold else ""),
        flush=True,
    )
    config = json.loads(args.config)
    policy = GatewayPolicy.from_config(config)
    head = max_head(policy)
    line_bytes = head.index(b"\r\n") + 2
    print(
        f"one head: {len(head):,} bytes (request line {line_bytes:,} of at most "
        f"{policy.max_request_line:,}, header fields {len(head) - line_bytes:,} of at most "
        f"{MAX_HEADER_BYTES:,}); {args.connections} of them: {len(head) * args.connections / MB:.0f} MiB; "
        f"head budget {policy.max_head_bytes / MB:.0f} MiB, maxConnections {policy.max_connections}",
        flush=True,
    )
    work = Path(tempfile.mkdtemp(prefix="qlgate-heads-"))
    procs: list[subprocess.Popen] = []
    try:
        (work / "tables").mkdir()
        (work / "config.json").write_text(json.dumps(config))
        port = free_port()
        gateway = subprocess.Popen(
            serve_command(port, work / "config.json", tables=work / "tables", extra=("--no-access-log",)),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=dict(os.environ, MALLOC_MMAP_THRESHOLD_=str(args.mmap_threshold)) if args.mmap_threshold else None,
        )
        procs.append(gateway)
        wait(f"http://127.0.0.1:{port}/health", timeout=60)
        time.sleep(1)
        idle = status(gateway.pid)
        print(f"\nidle gateway (baseline): RSS {idle['VmRSS'] / MB:.1f} MiB, peak so far {idle['VmHWM'] / MB:.1f} MiB")
        result = asyncio.run(hold(port, head, args.connections, args.hold, gateway.pid))
        during = status(gateway.pid)
        time.sleep(args.after)
        after = status(gateway.pid)
        after_health = health(port)
        peak = max(during["VmHWM"], result["peak_rss_sampled"])
        rise = peak - idle["VmRSS"]
        back = peak - after["VmRSS"]
        print(
            f"{args.connections} unfinished maximum heads sent in {result['sent_s']:.1f} s, held {args.hold:.0f} s: "
            f"{result['held']} held open by the gateway, {result['answered_503']} answered 503 (head budget) and "
            f"closed, {result['closed']} closed without an answer, {result['connect_failed']} not connected\n"
            f"  /health while they were held: {result['health']}\n"
            f"  peak RSS (VmHWM): {peak / MB:.1f} MiB = idle + {rise / MB:.1f} MiB "
            f"(target: peak ≤ 300 MB: {'met' if peak <= 300e6 else 'NOT met'})\n"
            f"  {args.after:.0f} s after every client closed: RSS {after['VmRSS'] / MB:.1f} MiB = idle + "
            f"{(after['VmRSS'] - idle['VmRSS']) / MB:.1f} MiB; given back {back / MB:.1f} MiB "
            f"({back / max(rise, 1):.0%} of the rise)\n"
            f"  /health after: {after_health}",
            flush=True,
        )
    finally:
        stop_all(procs)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
