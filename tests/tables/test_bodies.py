"""Body templates escape values for the body's media type."""

from pathlib import Path

import pytest

from qlgate.tables.bodies import BodyTemplate, TemplateError, render_mustache
from qlgate.tables.files import CodeDirs
from qlgate.tables.params import ParamView


def test_mustache_escapes_for_xml_and_json():
    params = {"params": {"t": 'a<b & "c"'}}
    assert (
        render_mustache("<T>{{#params}}{{t}}{{/params}}</T>", params, "application/xml")
        == "<T>a&lt;b &amp; &#34;c&#34;</T>"
    )
    assert render_mustache('{"t": "{{params.t}}"}', params, "application/json") == '{"t": "a<b & \\"c\\""}'
    assert render_mustache("{{{params.t}}}", params, "application/json") == 'a<b & "c"'


def test_mustache_sections_follow_javascript_truthiness():
    tpl = "{{#o}}[obj]{{/o}}{{#z}}[zero]{{/z}}{{#l}}<{{.}}>{{/l}}{{^none}}[none]{{/none}}"
    assert render_mustache(tpl, {"o": {}, "z": 0, "l": [1, 2]}, "text/plain") == "[obj]<1><2>[none]"


def test_jinja_autoescapes_per_media_type_and_safe_is_raw(tmp_path: Path):
    (tmp_path / "b.j2").write_text("<a>{{ params.x }}</a>{{ params.x|safe }}{{ params.nope }}")
    body = BodyTemplate.load("b.j2", "application/xml", None, CodeDirs.of([tmp_path]))
    assert body.render(ParamView(statement={}, variables={}), {"x": "<&>"}, {}) == "<a>&lt;&amp;&gt;</a><&>"


def test_ejs_runs_itself_unless_a_jinja_port_stands_beside_it(tmp_path: Path):
    pytest.importorskip("quickjs", reason="the js extra (quickjs) is not installed")
    (tmp_path / "a.ejs").write_text("<%= params.x %>")
    assert BodyTemplate.load("a.ejs", "application/json", None, CodeDirs.of([tmp_path])).engine == "ejs"
    (tmp_path / "a.j2").write_text("{{ params.x }}")
    assert BodyTemplate.load("a.ejs", "application/json", None, CodeDirs.of([tmp_path])).engine == "jinja"


def test_form_bodies_are_uri_templates(tmp_path: Path):
    (tmp_path / "f.txt").write_text("q={q}&n={n}")
    body = BodyTemplate.load("f.txt", "application/x-www-form-urlencoded", None, CodeDirs.of([tmp_path]))
    assert body.render(ParamView(statement={"q": "a b", "n": 2}, variables={}), {}, {}) == "q=a%20b&n=2"
