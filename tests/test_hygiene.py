"""What every test does with the processes and connections it opens, checked over the
source of tests/: a test that waits without a bound, or on a child blocked writing to a
pipe nobody reads, hangs the suite instead of failing (a clean run once hung for 10
minutes in tests/server/test_workers.py for both reasons).

- every ``urlopen``, ``socket.create_connection`` and ``http.client.HTTP(S)Connection``
  call passes a timeout;
- every ``subprocess.Popen`` with a pipe is drained (``tests/processes.py``) or
  communicated with in the function that starts it, or says on its line why its pipe is
  never read (``# never read``: a test of what the child does when nobody reads).
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
NETWORK = {"urlopen": 3, "create_connection": 2, "HTTPConnection": 3, "HTTPSConnection": 3}  # name → timeout's position


def _name(call: ast.Call) -> str | None:
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)


def _functions(tree: ast.AST) -> list[ast.AST]:
    return [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]


def findings(source: str, where: str) -> list[str]:
    """What ``source`` (one test module) does wrong, as ``where:line: what``."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node)
        keywords = {k.arg for k in node.keywords}
        if name in NETWORK and "timeout" not in keywords and None not in keywords and len(node.args) < NETWORK[name]:
            found.append(f"{where}:{node.lineno}: {name} without a timeout")
    for function in _functions(tree):
        body = ast.get_source_segment(source, function) if not isinstance(function, ast.Module) else source
        own = [n for n in ast.walk(function) if isinstance(n, ast.Call) and _name(n) == "Popen"]
        for call in own:
            piped = [k.arg for k in call.keywords if isinstance(k.value, ast.Attribute) and k.value.attr == "PIPE"]
            piped = [p for p in piped if p != "stdin"]
            said_why = any(
                "# never read" in lines[n - 1] for n in range(call.lineno, (call.end_lineno or call.lineno) + 1)
            )
            if piped and not said_why and "drain(" not in (body or "") and "communicate(" not in (body or ""):
                found.append(f"{where}:{call.lineno}: Popen with {', '.join(piped)}=PIPE never drained")
    return sorted(set(found))


def test_every_process_a_test_starts_is_drained_and_every_call_has_a_timeout():
    found = [
        finding
        for path in sorted(TESTS.rglob("*.py"))
        for finding in findings(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS.parent)))
    ]
    assert found == [], "\n".join(found)


def test_the_check_sees_what_hung_the_suite():
    """The check itself, on test_workers.py as it was when it hung."""
    hung = """
def test_two_workers():
    proc = subprocess.Popen(["qlgate", "serve"], stderr=subprocess.PIPE, text=True)
    with urllib.request.urlopen(request) as resp:
        pass
    assert "banner" in proc.stderr.read()
"""
    assert findings(hung, "t.py") == [
        "t.py:3: Popen with stderr=PIPE never drained",
        "t.py:4: urlopen without a timeout",
    ]
    fixed = hung.replace("text=True)", "text=True)\n    drain(proc)").replace("(request)", "(request, timeout=5)")
    assert findings(fixed, "t.py") == []
