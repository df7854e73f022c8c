"""The supervisor of ``serve --workers N`` on its own, with stand-in workers: a
dead worker is replaced, a crash loop backs off, a gateway that cannot start
ends with status 1, and a stop is bounded even for a worker that ignores SIGTERM.
Each case runs the supervisor in a process of its own: it takes over SIGTERM and
SIGINT, and forks."""

import itertools
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.processes import drain

ROOT = Path(__file__).resolve().parents[2]

# argv: the case, the stop bound, and a file each worker start appends "<index> <pid> <time>" to
SUPERVISED = """
import os, signal, sys, time
from qlgate.server.process import Backoff, GatewayDidNotStart, Supervisor

case, stop_timeout, starts = sys.argv[1], float(sys.argv[2]), sys.argv[3]

def worker(index, ready):
    with open(starts, "a") as f:
        f.write(f"{index} {os.getpid()} {time.monotonic()}\\n")
    if case == "cannot-start":
        if index == 1:
            sys.exit(3)
    else:
        if case == "slow-first" and index == 0:
            time.sleep(1.0)  # worker 0 loads slowly: worker 1 listens first
        if ready.first():
            print(f"banner by worker {index}", file=sys.stderr, flush=True)
        ready()
    if case == "deaf":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if case == "crash-loop" and index == 1:
        time.sleep(0.1)
        os._exit(70)
    while True:
        time.sleep(1)

backoff = Backoff(first=0.2, most=0.8)
try:
    sys.exit(Supervisor(worker, 2, stop_timeout=stop_timeout, backoff=backoff).run())
except GatewayDidNotStart as error:
    print(f"error: {error}", file=sys.stderr)
    sys.exit(1)
"""


def supervise(tmp_path: Path, case: str, stop_timeout: float = 30) -> tuple[subprocess.Popen, Path]:
    starts = tmp_path / "starts"
    starts.touch()
    proc = subprocess.Popen(
        [sys.executable, "-c", SUPERVISED, case, str(stop_timeout), str(starts)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    drain(proc)
    return proc, starts


def started(starts: Path) -> list[tuple[int, int, float]]:
    """Every worker start so far: its index, its pid, when."""
    lines = [line.split() for line in starts.read_text().splitlines()]
    return [(int(index), int(pid), float(at)) for index, pid, at in lines]


def wait_until(condition, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """Running, not a zombie nobody has reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def stop(proc: subprocess.Popen, timeout: float = 10) -> tuple[int, str]:
    """SIGTERM, then the exit status and what the supervisor logged."""
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=timeout)
    return proc.returncode, drain(proc).text(wait=5)


def test_a_crash_loop_backs_off_while_the_other_worker_keeps_serving(tmp_path):
    proc, starts = supervise(tmp_path, "crash-loop")
    try:
        wait_until(lambda: sum(1 for index, _, _ in started(starts) if index == 1) >= 5)
        loop = [at for index, _, at in started(starts) if index == 1]
        gaps = [later - earlier for earlier, later in itertools.pairwise(loop)]
        # each start lives 0.1 s, then waits 0.2, 0.4, 0.8, 0.8 s (0.8 the most): no spin
        assert gaps[0] >= 0.25 and gaps[1] >= 0.45 and gaps[2] >= 0.85 and gaps[3] >= 0.85, gaps
        assert gaps[3] < gaps[2] + 1, gaps  # capped, not doubled again
        steady = [pid for index, pid, _ in started(starts) if index == 0]
        assert len(steady) == 1 and alive(steady[0])
        status, log = stop(proc)
        assert status == 0
        assert not any(alive(pid) for _, pid, _ in started(starts))
        assert "worker 1 (pid" in log and "exited with status 70" in log and "starting another in 0.8 s" in log
        assert log.count("banner by worker") == 1  # a restarted worker says nothing the first one said
    finally:
        proc.kill()


def test_the_first_worker_to_listen_says_so_whichever_it_is(tmp_path):
    """The banner comes as the port starts answering: under load worker 0 once listened
    seconds after worker 1, and a client that got its answer saw no banner yet."""
    proc, starts = supervise(tmp_path, "slow-first")
    try:
        drain(proc).wait_for_line(lambda line: line.startswith("banner by"), timeout=30)
        wait_until(lambda: len(started(starts)) == 2)
        status, log = stop(proc)
        assert status == 0
        assert [line for line in log.splitlines() if line.startswith("banner by")] == ["banner by worker 1"]
    finally:
        proc.kill()


def test_a_gateway_that_cannot_start_is_an_error_not_a_restart(tmp_path):
    proc, starts = supervise(tmp_path, "cannot-start")
    try:
        proc.wait(timeout=20)
        log = drain(proc).text(wait=5)
        assert proc.returncode == 1
        assert "error: worker 1 (pid" in log and "exited with status 3) before it listened: not restarted" in log
        # not retried: a port taken or a broken tree fails loudly. Worker 0 may be
        # stopped before it records its start, so count worker 1's starts, and no repeats.
        indexes = [index for index, _, _ in started(starts)]
        assert indexes.count(1) == 1 and len(indexes) == len(set(indexes)), indexes
        assert not any(alive(pid) for _, pid, _ in started(starts))
    finally:
        proc.kill()


def test_a_worker_deaf_to_sigterm_is_killed_at_the_bound(tmp_path):
    proc, starts = supervise(tmp_path, "deaf", stop_timeout=1)
    try:
        wait_until(lambda: len(started(starts)) == 2)
        time.sleep(0.5)  # both past their start: SIGTERM is ignored now
        began = time.monotonic()
        status, log = stop(proc)
        assert status == 0
        assert 0.9 <= time.monotonic() - began < 5
        assert "still running: killed" in log
        assert not any(alive(pid) for _, pid, _ in started(starts))
    finally:
        proc.kill()


def test_a_second_signal_kills_at_once(tmp_path):
    proc, starts = supervise(tmp_path, "deaf", stop_timeout=60)
    try:
        wait_until(lambda: len(started(starts)) == 2)
        time.sleep(0.5)
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        assert proc.poll() is None  # the first asks, and waits for them
        status, _ = stop(proc)
        assert status == 0 and time.monotonic() - began < 5
        assert not any(alive(pid) for _, pid, _ in started(starts))
    finally:
        proc.kill()
