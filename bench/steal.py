"""How much CPU the hypervisor took from this machine while a figure was measured.

On a shared VM a benchmark's wall time moves with the host's load, not only with
our code: the same commit measured 55 ms in one minute and 80 ms in the next,
with steal at 5% and 40%. Printing steal beside a figure says which it was.
"""

from __future__ import annotations

from pathlib import Path

_STAT = Path("/proc/stat")


def _cpu_times() -> tuple[int, int] | None:
    """(all jiffies, stolen jiffies) over every CPU, or None off Linux."""
    try:
        fields = _STAT.read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    values = [int(v) for v in fields[1:9]]  # user nice system idle iowait irq softirq steal
    return sum(values), values[7]


class StealMeter:
    """``with StealMeter() as steal: ...`` then ``steal.share`` (0–1) or ``str(steal)``."""

    def __enter__(self) -> StealMeter:
        self._start = _cpu_times()
        self.share: float | None = None
        return self

    def __exit__(self, *exc: object) -> None:
        end = _cpu_times()
        if self._start is None or end is None or end[0] <= self._start[0]:
            return
        self.share = (end[1] - self._start[1]) / (end[0] - self._start[0])

    def __str__(self) -> str:
        return "host steal n/a" if self.share is None else f"host steal {self.share * 100:.0f}%"
