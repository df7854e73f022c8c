"""Every example of README.md and docs/*.md marked runnable runs, and says what it shows.

A fenced block preceded by an HTML comment ``<!-- runnable … -->`` is an example;
a block after it preceded by ``<!-- expect -->`` is what it must print. The block's
language says how it runs:

- ``ql``: a script, run in this process on one engine per workspace (the repo's
  tables, routes and config/dev.json: the built-in eBay emulator). Its expected
  output is its value as JSON. ``<!-- runnable fails -->``: the script must fail,
  and the expected block is a piece of its error message.
- ``sh``: run by bash in the document's workspace; expected is its stdout.
- ``python``: run by this Python in the workspace; expected is its stdout.
- ``<!-- runnable file=PATH -->`` (any language): the block is written to PATH in
  the document's workspace (a ``ql`` example after it runs on a fresh engine), and
  nothing runs. A document that writes files gets a fresh
  temporary workspace of its own; the others run in the repository's root.
- ``<!-- runnable background port=N -->``: a ``sh`` block started in the background
  (a server); the test waits until port N answers and stops it at the end.
- ``serve``: the block needs ``qlgate serve`` on port 3000 in the document's
  workspace; the test starts one (once per document) before the block runs.

Paths under ``/tmp/`` are rewritten to the test's own temporary directory, so an example
writes only there. Ports are made free, so the examples say the ports a reader uses: the gateway's
``127.0.0.1:3000`` (and ``--port 3000``), and every whole-word occurrence of a
background block's port, are rewritten to free ports for the whole document. Expected output is compared line by line,
each line as JSON when it parses (so spacing does not matter), else as text; a
block that parses as JSON as a whole is compared as one value.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from qlgate.errors import QlError
from qlgate.values import dump_json
from qlgate.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARK = re.compile(r"^<!--\s*(runnable|expect)\b(.*?)-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
GATEWAY_PORT = 3000
TMP = re.compile(r"(?<![\w./-])/tmp/")  # a path under /tmp in an example, not one already inside another path


@dataclass
class Example:
    doc: Path
    line: int
    lang: str
    text: str
    attrs: dict[str, str] = field(default_factory=dict)
    expect: str | None = None

    @property
    def where(self) -> str:
        name = self.doc.relative_to(ROOT) if self.doc.is_relative_to(ROOT) else self.doc
        return f"{name}:{self.line}"


def parse_attrs(text: str) -> dict[str, str]:
    attrs = {}
    for word in shlex.split(text):
        name, _, value = word.partition("=")
        attrs[name] = value
    return attrs


def read_fence(lines: list[str], start: int) -> tuple[str, str, int]:
    """The fenced block opening at ``lines[start]``: its language, text and the index after it."""
    opening = FENCE.match(lines[start])
    assert opening, f"line {start + 1}: a runnable mark must be followed by a fenced block"
    indent, fence, lang = opening.groups()
    body = []
    i = start + 1
    while i < len(lines) and not lines[i].strip().startswith(fence):
        line = lines[i]
        body.append(line[len(indent) :] if line.startswith(indent) else line)
        i += 1
    return lang, "\n".join(body) + "\n", i + 1


def examples_of(doc: Path) -> list[Example]:
    lines = doc.read_text(encoding="utf-8").splitlines()
    found: list[Example] = []
    i = 0
    while i < len(lines):
        mark = MARK.match(lines[i].strip())
        if not mark:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        lang, text, after = read_fence(lines, j)
        if mark.group(1) == "expect":
            assert found, f"{doc}:{i + 1}: an expect block with no example before it"
            found[-1].expect = text
        else:
            found.append(Example(doc, j + 1, lang, text, parse_attrs(mark.group(2))))
        i = after
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, what: str, log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{what} exited with {proc.returncode}: {log.read_text(errors='replace')}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{what} did not listen on {port} within {timeout} s")


def normalise(text: str) -> list[object]:
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    out: list[object] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append(line.strip())
    return out


class Document:
    """One document's examples, workspace, ports and background processes."""

    def __init__(self, doc: Path, tmp: Path):
        self.doc = doc
        self.examples = examples_of(doc)
        self.tmp = tmp
        self.processes: list[subprocess.Popen] = []
        self.gateway: subprocess.Popen | None = None
        writes = any("file" in e.attrs for e in self.examples)
        self.cwd = tmp / "workspace" if writes else ROOT
        self.cwd.mkdir(parents=True, exist_ok=True)
        self.ports = {GATEWAY_PORT: free_port()}
        for example in self.examples:
            if "port" in example.attrs:
                self.ports[int(example.attrs["port"])] = free_port()
        self.env = dict(os.environ)
        self.env.update(
            PATH=f"{Path(sys.executable).parent}{os.pathsep}{self.env.get('PATH', '')}",
            XDG_CACHE_HOME=str(tmp / "cache"),
            QLGATE_JOBS_DATABASE=str(tmp / "jobs.sqlite"),
            PYTHONPATH=str(ROOT),
        )
        for name in [n for n in self.env if n.startswith("EBAY_")]:
            del self.env[name]  # the examples show the emulator
        self.workspace: Workspace | None = None

    def ported(self, text: str) -> str:
        """``text`` with the reader's ports made free and the reader's ``/tmp/`` made this
        test's temporary directory: an example run for real must not overwrite a user's file."""
        text = TMP.sub(f"{self.tmp}/", text)
        for port, free in self.ports.items():
            if port == GATEWAY_PORT:
                text = re.sub(rf"\b127\.0\.0\.1:{port}\b", f"127.0.0.1:{free}", text)
                text = re.sub(rf"(--port\s+){port}\b", rf"\g<1>{free}", text)
            else:  # a background server's port, wherever the document writes it
                text = re.sub(rf"\b{port}\b", str(free), text)
        return text

    def start(self, command: str, port: int, what: str) -> subprocess.Popen:
        """A server in the background; what it writes (an access log) goes to a file, which
        cannot fill up as a pipe would."""
        log = self.tmp / f"background-{len(self.processes)}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                ["bash", "-c", f"exec {command}" if "\n" not in command.strip() else command],
                cwd=self.cwd,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append(proc)
        wait_for_port(port, proc, what, log)
        return proc

    def ensure_gateway(self) -> None:
        if self.gateway is None:
            port = self.ports[GATEWAY_PORT]
            self.gateway = self.start(f"qlgate serve --port {port} --workers 1", port, "qlgate serve")

    def stop(self) -> None:
        for proc in self.processes:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.processes:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    async def run_ql(self, example: Example) -> str:
        if self.workspace is None:

            def there(name: str) -> str | None:
                path = self.cwd / name
                return str(path) if path.exists() else None

            self.workspace = await Workspace.open(
                tables=there("tables"), routes=there("routes"), config=there("config/dev.json")
            )
        result = await self.workspace.engine.execute(self.ported(example.text), base_dir=self.cwd)
        return dump_json(result.value)

    def run_process(self, argv: list[str], example: Example) -> str:
        done = subprocess.run(argv, cwd=self.cwd, env=self.env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{example.where} exited {done.returncode}:\n{done.stderr}\n{done.stdout}"
        return done.stdout

    async def run(self, example: Example) -> None:
        text = self.ported(example.text)
        if "file" in example.attrs:
            path = self.cwd / example.attrs["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            if self.workspace is not None:  # the next script sees the new file
                await self.workspace.close()
                self.workspace = None
            return
        if "serve" in example.attrs:
            self.ensure_gateway()
        if "background" in example.attrs:
            port = int(example.attrs["port"])
            self.start(text, self.ports[port], example.where)
            return
        if example.lang == "ql":
            if "fails" in example.attrs:
                with pytest.raises(QlError) as failed:
                    await self.run_ql(example)
                if example.expect is not None:
                    message = str(failed.value)
                    assert example.expect.strip() in message, f"{example.where}: the error was {message!r}"
                return
            output = await self.run_ql(example)
        elif example.lang in ("sh", "bash", "console"):
            output = self.run_process(["bash", "-e", "-o", "pipefail", "-c", text], example)
        elif example.lang == "python":
            output = self.run_process([sys.executable, "-c", text], example)
        else:
            raise AssertionError(f"{example.where}: no way to run a {example.lang or 'plain'} block")
        if example.expect is not None:
            got, want = normalise(output), normalise(self.ported(example.expect))
            assert got == want, f"{example.where} printed\n{output}\nnot\n{example.expect}"


async def run_document(doc: Path, tmp: Path) -> int:
    document = Document(doc, tmp)
    try:
        for example in document.examples:
            await document.run(example)
    finally:
        document.stop()
        if document.workspace is not None:
            await document.workspace.close()
    return len(document.examples)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_runnable_example_of_the_document_runs(doc: Path, tmp_path: Path) -> None:
    asyncio.run(run_document(doc, tmp_path))


def test_the_docs_have_runnable_examples_and_expectations() -> None:
    """The marks are found: a mark that stopped matching would pass every document unseen."""
    every = [e for doc in DOCS for e in examples_of(doc)]
    for name in ("README.md", "docs/language.md", "docs/tutorial.md"):
        assert any(e.doc == ROOT / name for e in every), f"{name} has no runnable example"
    assert sum(e.expect is not None for e in every) >= 20


def test_no_example_writes_outside_the_tests_temporary_directory(tmp_path: Path) -> None:
    """README's ``qlgate sandbox --write-config /tmp/emulator.json`` ran for real once and
    overwrote a user's file: as run, every example's ``/tmp/`` is the test's own directory."""
    seen = 0
    for doc in DOCS:
        document = Document(doc, tmp_path / doc.stem)
        for example in document.examples:
            seen += "/tmp/" in example.text
            assert "/tmp/" not in document.ported(example.text).replace(f"{document.tmp}/", ""), example.where
    assert seen, "no example names /tmp/ any more: this test checks nothing"


def test_an_expectation_that_no_longer_holds_fails(tmp_path: Path) -> None:
    """The checker itself: a wrong expected value, and a script that fails, are caught."""
    doc = tmp_path / "wrong.md"
    doc.write_text(
        "<!-- runnable -->\n```ql\nreturn 'two';\n```\n<!-- expect -->\n```json\n\"three\"\n```\n",
        encoding="utf-8",
    )
    with pytest.raises(AssertionError, match="printed"):
        asyncio.run(run_document(doc, tmp_path / "run1"))
    doc.write_text("<!-- runnable -->\n```ql\nreturn select * from no.such.table;\n```\n", encoding="utf-8")
    with pytest.raises(QlError):
        asyncio.run(run_document(doc, tmp_path / "run2"))


CI_TEST_LINE = re.compile(r"python3 -m pip install -e '\.\[test\]'.*python3 -m pytest")


def test_the_readme_set_up_commands_make_a_venv_and_are_what_ci_runs() -> None:
    """Debian's system Python refuses a bare pip install (PEP 668): both set-up commands make
    a venv first, and the test command is still the line ``.ci/run`` finds and evals."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    commands = [line for line in lines if "pip install -e" in line]
    assert len(commands) >= 2, "the README lost its set-up commands"
    venv = "python3 -m venv .venv && . .venv/bin/activate && python3 -m pip install -e "
    for line in commands[:2]:
        assert venv in line, line
    ci = next(line for line in lines if CI_TEST_LINE.search(line))
    assert ci == commands[1], "the test command must be the first line .ci/run's grep finds"
    ci_text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m pip install -e '\\.\\[test\\]'.*python3 -m pytest" in ci_text, ".ci/run's grep changed"
    command = re.sub(r"\s+#.*$", "", ci)  # what .ci/run strips
    assert command.endswith("python3 -m pytest")
    parsed = subprocess.run(["bash", "-n", "-c", command], capture_output=True, text=True)
    assert parsed.returncode == 0, parsed.stderr


LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(doc: Path) -> set[str]:
    text = doc.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*)$", text, flags=re.M)}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_between_the_docs_leads_somewhere(doc: Path) -> None:
    broken = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto: not checked offline
        path, _, anchor = target.partition("#")
        linked = (doc.parent / path).resolve() if path else doc
        missing_anchor = bool(anchor) and linked.suffix == ".md" and anchor not in anchors_of(linked)
        if not linked.exists() or missing_anchor:
            broken.append(target)
    assert not broken, f"{doc.relative_to(ROOT)} links to what is not there: {broken}"
