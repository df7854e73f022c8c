"""The archive seen from another process, for tests/jobs/test_archive.py:

    python3 -m tests.jobs.archive_child open TARGET    # says "ready", opens TARGET on a line of stdin
    python3 -m tests.jobs.archive_child large TARGET MIB

``open``: processes that start together still open the archive a few milliseconds
apart; ready-then-go has them all waiting at the same line, then open at once.
``large``: writes and reads back a result of MIB mebibytes and prints (JSON) how
far each step raised the process's peak memory, in MiB.
"""

from __future__ import annotations

import gc
import json
import resource
import sys

from qlgate.jobs.archive import Archive


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def open_on_cue(target: str) -> None:
    print("ready", flush=True)
    sys.stdin.readline()
    Archive.open(target).close()
    print("opened", flush=True)


def large(target: str, mib: int) -> None:
    archive = Archive.open(target)
    item = json.dumps(
        {
            "itemId": "v1|1234567890|0",
            "title": "Apple iPhone 15 Pro 256GB, unlocked",
            "price": {"value": "999.00", "currency": "USD"},
        }
    ).encode()
    data = b"[" + b",".join([item] * (mib * 2**20 // (len(item) + 1))) + b"]"
    gc.collect()
    before = peak_mib()
    archive.put_result(1, 1, data)
    written = peak_mib()
    back = archive.get_result(1, 1)
    read = peak_mib()
    archive.close()
    print(
        json.dumps({"bytes": len(data), "same": back == data, "put_mib": written - before, "get_mib": read - written})
    )


if __name__ == "__main__":
    command, target, *rest = sys.argv[1:]
    if command == "open":
        open_on_cue(target)
    else:
        large(target, int(rest[0]))
