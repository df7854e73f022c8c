"""Shared pieces of the side-by-side benches (issue 29): every request its own, CPU of
a serving process, upstream calls per answered request, medians and spreads.

Unique requests: a request path is written with ``N`` where a per-request number goes
(``q = "xN"``, ``ms = "-N"``: the upstream sleeps no time on a negative ``ms``); it is
percent-encoded once, cut at the ``N`` marks and turned into a ``wrk`` Lua script whose
``request()`` counts: ``wrk -t1`` sends ``…x1…``, ``…x2…``, … Each load gets its own
start (``Numbers``), so no two requests of a run, across rounds and cells, are the same:
nothing of a request can be shared with one in flight, nor taken from a cache.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

MARK = "QQNQQ"  # stands for the number in a path template; survives percent-encoding as is
CLK_TCK = os.sysconf("SC_CLK_TCK")
_UNIT_S = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


class Numbers:
    """Where each load's counter starts: 10 million apart."""

    def __init__(self) -> None:
        self.next = 0

    def start(self) -> int:
        self.next += 10_000_000
        return self.next


def lua(template: str, start: int) -> str:
    """A wrk script sending GET ``template`` with ``MARK`` replaced by start+1, start+2, …"""
    pieces = template.split(MARK)
    expr = " .. n .. ".join(f"[==[{piece}]==]" for piece in pieces)
    return f"local n = {start}\nrequest = function()\n  n = n + 1\n  return wrk.format('GET', {expr})\nend\n"


def descendants(pid: int) -> list[int]:
    """``pid`` and every live process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, ()))
    return found


def cpu_seconds(pid: int) -> float:
    """utime + stime of ``pid`` and its live descendants, in seconds."""
    ticks = 0
    for p in descendants(pid):
        try:
            stat = Path(f"/proc/{p}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        ticks += int(fields[11]) + int(fields[12])  # fields 14 and 15 of stat(5): utime, stime
    return ticks / CLK_TCK


def wrk(url: str, concurrency: int, seconds: float, script: Path | None = None, extra: tuple[str, ...] = ()) -> dict:
    """``wrk -t1`` at ``url`` (with a Lua ``script``, the path is the script's)."""
    command = ["wrk", "-t", "1", "-c", str(concurrency), "-d", f"{max(1, round(seconds))}s", *extra]
    if script is not None:
        command += ["-s", str(script)]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    count, duration, unit = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)\b", out).groups()
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "requests": int(count),
        "seconds": float(duration) * _UNIT_S[unit],
        "errors": (int(bad.group(1)) if bad else 0) + (sum(map(int, socket_errors.groups())) if socket_errors else 0),
    }


def upstream_count(base: str | None) -> int | None:
    """Requests the bench upstream has read so far (``GET /count``); None without one."""
    if base is None:
        return None
    with urllib.request.urlopen(f"{base}/count", timeout=10) as answer:
        return int(answer.read())


def settle(base: str | None, pids: list[int], quiet: float = 0.3, limit: float = 10.0) -> None:
    """Wait until the upstream reads nothing and ``pids`` use no CPU for ``quiet`` seconds
    (``limit`` at most): a server whose client left may still work through what it had
    read (ql.io does), and that must not count against the next cell."""
    deadline = time.monotonic() + limit
    last = (upstream_count(base), sum(cpu_seconds(p) for p in pids))
    while time.monotonic() < deadline:
        time.sleep(quiet)
        now = (upstream_count(base), sum(cpu_seconds(p) for p in pids))
        if now == last:
            return
        last = now


class Load:
    """Loads one cell: a fixed URL (``shared``) or a path template with ``MARK`` (unique)."""

    def __init__(
        self, work: Path, numbers: Numbers, concurrency: int, upstream: str | None, pids: list[int] = ()
    ) -> None:
        self.work, self.numbers, self.concurrency, self.upstream = work, numbers, concurrency, upstream
        self.pids = list(pids)  # every serving process: settled before each load
        self.scripts = 0

    def run(self, origin: str, path: str, pid: int, seconds: float) -> dict:
        """Load ``origin``+``path`` for ``seconds``: req/s, CPU µs per request of ``pid`` (and
        its descendants), upstream calls per answered request (None without a counting upstream)."""
        script = None
        if MARK in path:
            self.scripts += 1
            script = self.work / f"unique-{self.scripts}.lua"
            script.write_text(lua(path, self.numbers.start()))
            url = origin + "/"
        else:
            url = origin + path
        settle(self.upstream, self.pids)
        calls_before = upstream_count(self.upstream)
        cpu_before = cpu_seconds(pid)
        r = wrk(url, self.concurrency, seconds, script)
        cpu = cpu_seconds(pid) - cpu_before
        calls_after = upstream_count(self.upstream)
        answered = max(r["requests"], 1)
        r["rps"] = r["requests"] / r["seconds"]
        r["cpu_us"] = cpu / answered * 1e6
        r["calls"] = None if calls_before is None else (calls_after - calls_before) / answered
        return r


def median_spread(values: list[float]) -> str:
    """``median (min–max)`` of per-round figures."""
    if not values:
        return "n/a"
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


def fmt_calls(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def machine_with_node() -> None:
    """Stop unless wrk and node are on PATH (the peers run on Node); print the machine."""
    if not shutil.which("wrk") or not shutil.which("node"):
        raise SystemExit("needs wrk and node on PATH")
    node_version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"machine: {os.cpu_count()} CPUs, node {node_version}, python {sys.version.split()[0]}", flush=True)
