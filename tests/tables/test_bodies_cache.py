"""Compiled Jinja2 body templates are kept between processes (Jinja's bytecode
cache), and an edited template is compiled afresh, never served stale."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from qlgate.tables.bodies import _bytecode_cache

RENDER = """
import sys
from pathlib import Path
from qlgate.tables.bodies import BodyTemplate
from qlgate.tables.files import CodeDirs
from qlgate.tables.params import ParamView
folder = Path(sys.argv[1])
body = BodyTemplate.load("b.j2", "text/plain", None, CodeDirs.of([folder]))
print(body.render(ParamView(statement={}, variables={}), {"who": "world"}, {}), end="")
"""


def render_in_a_new_process(folder: Path) -> str:
    done = subprocess.run([sys.executable, "-c", RENDER, str(folder)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_compiled_template_is_kept_for_the_next_process_and_an_edit_is_seen(tmp_path):
    cache = _bytecode_cache()
    assert cache is not None
    template = tmp_path / "b.j2"
    template.write_text("hello {{ params.who }}")
    kept = Path(cache.directory) / (cache.pattern % cache.get_cache_key("b.j2", str(template)))
    kept.unlink(missing_ok=True)  # from an earlier run in the same folder
    assert render_in_a_new_process(tmp_path) == "hello world"
    assert kept.exists()  # this template's compiled code, for the next process
    template.write_text("goodbye {{ params.who }}")
    assert render_in_a_new_process(tmp_path) == "goodbye world"  # the edit, not the cached code
