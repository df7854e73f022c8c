"""Which embedded JavaScript engine qlgate's sandbox uses, by measurement (issue 30):
QuickJS (``quickjs``) against V8 (``mini-racer``) on what a gateway does with them —
one context per template or patch file, and many small calls.

    python3 bench/js_engines.py            # both, when both are installed

Prints, per engine: the first context (ms), each further context (ms), one small
call (µs: a template-like function over JSON data) and the RSS that 21 contexts
add (MB). Each engine runs in a process of its own so their memory does not mix.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

SOURCE = "function render(p){ var out=[]; for (var i=0;i<20;i++){ out.push('<Item>'+p.title+i+'</Item>'); } return out.join(''); }"
CALLS = 2000
DATA = json.dumps(json.dumps({"title": "x"}))


def measure(which: str) -> dict[str, float]:
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    if which == "quickjs":
        import quickjs

        ctx = quickjs.Context()
        ctx.set_memory_limit(32 << 20)
        ctx.set_time_limit(1)
        ctx.eval(SOURCE)
        first = time.perf_counter() - started

        def call() -> object:
            return ctx.eval(f"render(JSON.parse({DATA}))")

        def new() -> object:
            return quickjs.Context()
    else:
        from py_mini_racer import MiniRacer

        ctx = MiniRacer()
        ctx.eval(SOURCE)
        first = time.perf_counter() - started

        def call() -> object:
            return ctx.eval(f"render(JSON.parse({DATA}))", timeout_sec=1, max_memory=32 << 20)

        def new() -> object:
            return MiniRacer()

    call()
    started = time.perf_counter()
    for _ in range(CALLS):
        call()
    per_call = (time.perf_counter() - started) / CALLS
    started = time.perf_counter()
    keep = [new() for _ in range(20)]
    per_context = (time.perf_counter() - started) / len(keep)
    rss = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
    return {"first_ms": first * 1e3, "context_ms": per_context * 1e3, "call_us": per_call * 1e6, "rss_mb": rss}


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(measure(sys.argv[2])), flush=True)
        sys.stdout.flush()
        import os

        os._exit(0)  # mini-racer's V8 threads can hold an ordinary exit
    for which in ("quickjs", "mini-racer"):
        try:
            out = subprocess.run(
                [sys.executable, __file__, "--one", which], capture_output=True, text=True, timeout=300, check=True
            ).stdout
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            print(f"{which:10}  not measured: {e}")
            continue
        m = json.loads(out)
        print(
            f"{which:10}  first context {m['first_ms']:7.1f} ms  further {m['context_ms']:6.2f} ms  "
            f"call {m['call_us']:7.1f} µs  21 contexts +{m['rss_mb']:5.1f} MB RSS"
        )


if __name__ == "__main__":
    main()
