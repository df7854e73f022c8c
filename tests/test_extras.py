"""``pip install qlgate`` without extras (qlgate/extras.py): ``qlgate run`` works, and
each optional feature says which extra to install instead of an ImportError.

"Without extras" is a subprocess whose ``sys.meta_path`` starts with a finder that
refuses the optional dependencies and the emulator, as an interpreter where they
were never installed would (a real venv with only the core, made with pip, takes
a minute; this takes a fraction of a second per command). Each case lets through
only the extras it is not about."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from qlgate.extras import EXTRAS
from qlgate.ports import free_port
from tests.processes import drain

ROOT = Path(__file__).resolve().parents[1]
EMULATOR = "qlgate_ebay_emulator"
OPTIONAL = {module for modules in EXTRAS.values() for module in modules} | {EMULATOR}
# what pyproject.toml names each optional module's distribution
DISTRIBUTION = {"aiohttp": "aiohttp", "kazoo": "kazoo", "psycopg": "psycopg", "redis": "redis"}
DISTRIBUTION |= {"prompt_toolkit": "prompt_toolkit", "rich": "rich", "yaml": "pyyaml", "quickjs": "quickjs"}

BLOCKER = """
import sys

blocked = set(filter(None, sys.argv[1].split(",")))


class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
if sys.argv[2] == "-c":
    exec(sys.argv[3])
else:
    from qlgate.cli import main

    sys.exit(main(sys.argv[2:]))
"""


def core_only(*args: str, cwd: Path, allow: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """``qlgate ARGS`` (or ``-c CODE``) in an interpreter without the optional modules but ``allow``."""
    blocked = ",".join(sorted(OPTIONAL - set(allow)))
    return subprocess.run(
        [sys.executable, "-c", BLOCKER, blocked, *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def with_port(args: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(str(free_port()) if arg == "PORT" else arg for arg in args)


def error_of(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    return str(json.loads(done.stderr.strip().splitlines()[-1])["error"])


class _Items(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps({"items": [{"name": "guitar", "path": self.path}, {"name": "amp", "path": self.path}]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def local_upstream() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Items)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


# the modules of a feature, which may import its extra's modules at their top; no other may
FEATURE_MODULES = {
    "kazoo": ("qlgate.jobs.zk.", "qlgate.jobs.ids", "qlgate.limits.stores.zk_"),
    "psycopg": ("qlgate.jobs.archive_pg",),
    "prompt_toolkit": ("qlgate.shell.",),
}
IMPORT_ALL = """
import importlib, pkgutil, qlgate
for m in pkgutil.walk_packages(qlgate.__path__, "qlgate."):
    if m.name != "qlgate.__main__":  # that one runs the command line
        try:
            importlib.import_module(m.name)
        except ImportError as error:
            print(m.name, error.name)
"""


def test_only_a_features_own_modules_import_its_extra(tmp_path):
    """Every module of the package imports without the extras but those of the features
    that need them: a core module (the embedded job backend, say) that imported kazoo
    on the way would fail ``qlgate serve`` on a host without the cluster extra."""
    done = core_only("-c", IMPORT_ALL, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    failed = dict(line.split() for line in done.stdout.splitlines())
    assert failed, "the blocker blocked nothing"
    for module, missing in failed.items():
        assert module.startswith(FEATURE_MODULES.get(missing, ())), f"{module} imports {missing}"
    # and a feature's modules need no other extra than their own
    for allowed, prefixes in FEATURE_MODULES.items():
        done = core_only("-c", IMPORT_ALL, cwd=tmp_path, allow=(allowed,))
        wrongly = [line for line in done.stdout.splitlines() if line.startswith(prefixes)]
        assert not wrongly, wrongly


def test_serve_with_no_extra_starts_and_answers(tmp_path, local_upstream):
    """The gateway (qlgate's own server) and its start-up — the embedded job backend, the
    memory cache — need no extra; ``/q`` runs a script against a local upstream."""
    import time
    import urllib.parse
    import urllib.request

    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "shop.ql").write_text(
        "create table shop.search on select get from '{config.base}/s?q={q}' resultset 'items'"
    )
    (tmp_path / "c.json").write_text(json.dumps({"base": local_upstream}))
    port = free_port()
    blocked = ",".join(sorted(OPTIONAL))
    args = ["serve", "--port", str(port), "--workers", "1", "--tables", "tables", "--config", "c.json"]
    server = subprocess.Popen(
        [sys.executable, "-c", BLOCKER, blocked, *args], cwd=tmp_path, stderr=subprocess.PIPE, text=True
    )
    output = drain(server)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
                    assert json.load(answer)["status"] == "ok"
                break
            except OSError:
                assert server.poll() is None, output.text(wait=5)
                assert time.monotonic() < deadline, "the gateway did not answer within 30 s"
                time.sleep(0.2)
        script = urllib.parse.quote('return select name from shop.search where q = "amps";')
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/q?s={script}", timeout=10) as answer:
            assert json.load(answer) == ["guitar", "amp"]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_blocker_refuses_what_it_is_told_to(tmp_path):
    done = core_only("-c", "import kazoo", cwd=tmp_path)
    assert "No module named 'kazoo'" in done.stderr
    assert core_only("-c", "import kazoo", cwd=tmp_path, allow=("kazoo",)).returncode == 0


def test_run_against_a_local_upstream_needs_no_extra(tmp_path, local_upstream):
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "shop.ql").write_text(
        "create table shop.search on select get from '{config.base}/s?q={q}' resultset 'items'"
    )
    (tmp_path / "c.json").write_text(json.dumps({"base": local_upstream}))
    script = tmp_path / "s.ql"
    script.write_text('return select name, path from shop.search where q = "strings";')
    done = core_only("run", str(script), "--tables", str(tables), "--config", "c.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [["guitar", "/s?q=strings"], ["amp", "/s?q=strings"]]
    # and the table output on a terminal, without rich: the plain table pipes get
    code = (
        "import io; from qlgate.commands.output import write_value\n"
        "class Tty(io.StringIO):\n    def isatty(self): return True\n"
        "out = Tty(); write_value([{'name': 'guitar'}], 'table', out); print(out.getvalue(), end='')"
    )
    table = core_only("-c", code, cwd=tmp_path)
    assert table.stdout == "name\n------\nguitar\n", table.stderr


@pytest.mark.parametrize(
    "args, allow, extra",
    [
        (("serve", "--port", "PORT", "--zookeeper", "127.0.0.1:1"), (), "cluster"),
        (("worker", "--zookeeper", "127.0.0.1:1"), (), "cluster"),
        (("limiter", "--zookeeper", "127.0.0.1:1"), (), "cluster"),
        (("jobs", "list", "--zookeeper", "127.0.0.1:1"), (), "cluster"),
        (("shell",), (), "shell"),
        (("run", "-e", "return 1;", "--config", "redis.json"), (), "redis"),
        (("import", "openapi", "spec.yaml", "--name", "acme.pets", "--out", "out"), (), "openapi"),
    ],
)
def test_a_feature_without_its_extra_names_the_extra_to_install(tmp_path, args, allow, extra):
    (tmp_path / "redis.json").write_text(json.dumps({"cache": {"url": "redis://127.0.0.1:1/0"}}))
    (tmp_path / "spec.yaml").write_text("openapi: 3.0.0\ninfo: {title: pets, version: '1'}\npaths: {}\n")
    done = core_only(*with_port(args), cwd=tmp_path, allow=allow)
    assert done.returncode == 2, done.stderr
    assert f"pip install 'qlgate[{extra}]'" in error_of(done)


def test_auth_logins_redirect_without_aiohttp_names_the_login_extra(tmp_path):
    code = (
        "import asyncio\nfrom qlgate.oauth.login import wait_for_redirect\nfrom qlgate.errors import MissingExtra\n"
        "try:\n    asyncio.run(wait_for_redirect(0, 'state', 1.0))\n"
        "except MissingExtra as e:\n    print(e.extra, e.install)"
    )
    done = core_only("-c", code, cwd=tmp_path)
    assert done.stdout.strip() == "login pip install 'qlgate[login]'", done.stderr


def test_a_postgresql_archive_without_psycopg_names_the_cluster_extra(tmp_path):
    code = (
        "from qlgate.jobs.archive import Archive\nfrom qlgate.errors import MissingExtra\n"
        "try:\n    Archive('postgresql://127.0.0.1:1/jobs')\n"
        "except MissingExtra as e:\n    print(e.extra, e.install)"
    )
    done = core_only("-c", code, cwd=tmp_path)
    assert done.stdout.strip() == "cluster pip install 'qlgate[cluster]'", done.stderr


def test_a_json_openapi_spec_needs_no_pyyaml(tmp_path):
    spec = {"openapi": "3.0.0", "info": {"title": "pets", "version": "1"}, "servers": [{"url": "http://127.0.0.1:1"}]}
    spec["paths"] = {"/pets": {"get": {"operationId": "listPets", "responses": {"200": {"description": "ok"}}}}}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    done = core_only("import", "openapi", "spec.json", "--name", "acme.pets", "--out", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "out").rglob("*.ql"))


@pytest.mark.parametrize(
    "args",
    [
        ("sandbox", "--port", "0"),
        ("run", "-e", "return 1;", "--config", "emulated.json"),
        ("serve", "--port", "PORT", "--config", "emulated.json"),
    ],
)
def test_without_the_emulator_a_config_that_wants_it_says_what_to_install(tmp_path, args):
    (tmp_path / "emulated.json").write_text(json.dumps({"ebay": {"environment": "emulator"}}))
    done = core_only(*with_port(args), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    message = error_of(done)
    assert "pip install qlgate-ebay-emulator" in message and "pip install -e ./emulator" in message


def test_with_the_emulator_installed_a_config_with_no_credentials_runs_against_it(tmp_path):
    (tmp_path / "auto.json").write_text(json.dumps({"ebay": {"environment": "auto"}}))
    script = "return select searchResult.item[0].title from ebay.finding.findItemsByKeywords where keywords = 'camera' limit 1;"
    done = core_only(
        "run",
        "-e",
        script,
        "--tables",
        str(ROOT / "tables"),
        "--config",
        "auto.json",
        cwd=tmp_path,
        allow=("aiohttp", EMULATOR),
    )
    assert done.returncode == 0, done.stderr
    (title,) = json.loads(done.stdout)
    assert "Camera" in title


def test_pyproject_extras_bring_what_extras_py_says():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = project["optional-dependencies"]

    def names(requirements: list[str]) -> set[str]:
        return {r.split(";")[0].split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip() for r in requirements}

    for extra, modules in EXTRAS.items():
        assert names(optional[extra]) == {DISTRIBUTION[m] for m in modules}, extra
    core = names(project["dependencies"])
    assert not core & set(DISTRIBUTION.values())  # no optional dependency in the core
    assert {"qlgate", "qlgate-ebay-emulator"} <= names(optional["test"])


def test_qlgate_never_imports_the_emulator_by_module_path():
    """The emulator is found by entry point (qlgate/emulators.py), so qlgate installs and
    runs without it."""
    found = []
    for path in (ROOT / "qlgate").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.partition(".")[0] == EMULATOR]
    assert found == []


def test_the_emulator_distribution_declares_the_entry_point_qlgate_looks_up():
    from importlib.metadata import entry_points

    from qlgate.emulators import GROUP

    emulator = tomllib.loads((ROOT / "emulator" / "pyproject.toml").read_text())["project"]
    assert emulator["entry-points"][GROUP] == {"ebay": f"{EMULATOR}.plugin:EMULATOR"}
    (point,) = entry_points(group=GROUP, name="ebay")  # installed, as README's commands do
    assert point.value == f"{EMULATOR}.plugin:EMULATOR"


def test_an_entry_point_whose_package_is_gone_reads_as_not_installed_and_a_broken_one_does_not(tmp_path):
    """Metadata a removed package left behind is 'not installed' (with what to install);
    an installed emulator that fails to import something else shows that error."""
    info = tmp_path / "site" / "leftover-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: leftover\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[qlgate.emulators]\ngone = gone_emulator.plugin:EMULATOR\nbroken = broken_emulator.plugin:EMULATOR\n"
    )
    (tmp_path / "site" / "broken_emulator").mkdir()
    (tmp_path / "site" / "broken_emulator" / "__init__.py").write_text("")
    (tmp_path / "site" / "broken_emulator" / "plugin.py").write_text("import no_such_dependency\n")
    code = (
        "import sys; sys.path.insert(0, 'site')\n"
        "from qlgate.emulators import find_emulator\nfrom qlgate.errors import MissingExtra\n"
        "for name in ('gone', 'broken'):\n"
        "    try:\n        find_emulator(name, wanted_by='this test')\n"
        "    except MissingExtra as e:\n        print(name, 'missing:', e.message)\n"
        "    except ImportError as e:\n        print(name, 'import error:', e.name)\n"
    )
    done = core_only("-c", code, cwd=tmp_path, allow=tuple(OPTIONAL))
    gone, broken = done.stdout.splitlines()
    assert gone.startswith("gone missing: this test needs the gone emulator, which is not installed: pip install ")
    assert broken == "broken import error: no_such_dependency"
