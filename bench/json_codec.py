"""JSON encoding and decoding on the hot path (issue 18, item 3): ``dump_json``
(every answer) and ``load_json`` (every upstream body) against plain ``json``
with the same guarantees, on a ~6 KB search answer, in one run.

    python bench/json_codec.py [--loops 20000]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from qlgate.http.codecs import load_json
from qlgate.values import dump_json

ANSWER = {
    "itemSummaries": [
        {
            "itemId": f"v1|1100{i:08d}|0",
            "title": f"Canon EOS camera body {i} — boxed, ünused",
            "price": {"value": f"{100 + i * 7.5:.2f}", "currency": "USD"},
            "condition": "New",
            "seller": {"username": f"seller{i}", "feedbackScore": 1000 + i, "feedbackPercentage": "99.5"},
            "image": {"imageUrl": f"https://i.ebayimg.com/images/g/{i}/s-l225.jpg"},
            "categories": [{"categoryId": "31388", "categoryName": "Digital Cameras"}],
            "buyingOptions": ["FIXED_PRICE"],
        }
        for i in range(20)
    ],
    "total": 20,
}


def per_call_us(fn, arg, loops: int) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(loops):
            fn(arg)
        best = min(best, time.perf_counter() - start)
    return best / loops * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loops", type=int, default=20000)
    args = parser.parse_args()
    text = json.dumps(ANSWER)
    print(f"command: python bench/json_codec.py --loops {args.loops}")
    print(f"a {len(text.encode()):,}-byte answer; best of 5 runs of {args.loops:,} calls each")

    def json_dump(value):
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))

    rows = [
        ("encode", per_call_us(json_dump, ANSWER, args.loops), per_call_us(dump_json, ANSWER, args.loops)),
        ("decode", per_call_us(json.loads, text, args.loops), per_call_us(load_json, text, args.loops)),
    ]
    for name, baseline, ours in rows:
        print(f"  {name}: json {baseline:6.1f} µs   qlgate {ours:6.1f} µs   ×{baseline / ours:.1f}")


if __name__ == "__main__":
    main()
