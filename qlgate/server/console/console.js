// The console: write a script, run it through /q, see the result and its upstream calls.

import {highlight, escapeHtml} from "./highlight.js";
import {renderTree, setAllOpen} from "./jsontree.js";
import {renderWaterfall} from "./waterfall.js";
import {Completer} from "./completion.js";
import {Browser} from "./browser.js";
import {JobsView} from "./jobs.js";
import {api} from "./api.js";

const $ = (id) => document.getElementById(id);
const editor = $("editor");
const layer = $("highlight");
const result = $("result");
const status = $("status");
const adhoc = document.body.dataset.adhoc === "true";

function paint() {
  // the trailing space keeps a final empty line as tall as in the textarea
  layer.innerHTML = highlight(editor.value) + " ";
  layer.scrollTop = editor.scrollTop;
  layer.scrollLeft = editor.scrollLeft;
}

function caretPoint() {
  const before = editor.value.slice(0, editor.selectionStart);
  layer.innerHTML = escapeHtml(before) + '<span id="caret-mark">\u200b</span>';
  const mark = $("caret-mark");
  const point = {left: mark.offsetLeft - editor.scrollLeft, top: mark.offsetTop + mark.offsetHeight - editor.scrollTop};
  paint();
  return point;
}

function setStatus(text, kind = "") {
  status.textContent = text;
  status.className = kind;
}

function describeError(body, httpStatus) {
  const where = body.line ? ` (line ${body.line}${body.column ? `, column ${body.column}` : ""})` : "";
  return `${httpStatus} ${body.type || "error"}${where}: ${body.err || body.error || "request failed"}`;
}

function moveCaretTo(line, column) {
  const lines = editor.value.split("\n");
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i].length + 1;
  offset += Math.max((column || 1) - 1, 0);
  editor.focus();
  editor.setSelectionRange(offset, offset);
}

async function show(response, started) {
  const elapsed = performance.now() - started;
  let body;
  try {
    body = await response.json();
  } catch {
    result.replaceChildren(Object.assign(document.createElement("pre"), {textContent: "(the response is not JSON)"}));
    setStatus(`${response.status} · ${elapsed.toFixed(0)} ms`, response.ok ? "ok" : "failed");
    return;
  }
  const diagnostics = body && typeof body === "object" ? body.diagnostics : undefined;
  if (response.ok) {
    renderTree(result, diagnostics ? body.result : body);
    const calls = diagnostics ? (diagnostics.sent ?? diagnostics.calls.length) : 0;
    const reused = diagnostics ? (diagnostics.cache_hits || 0) + (diagnostics.shared || 0) : 0;
    setStatus(`${response.status} OK · ${calls} upstream call${calls === 1 ? "" : "s"}` +
      (reused ? ` · ${reused} answered without one` : "") + ` · ${elapsed.toFixed(0)} ms`, "ok");
  } else {
    const message = describeError(body, response.status);
    const box = Object.assign(document.createElement("div"), {className: "error", textContent: message});
    result.replaceChildren(box);
    setStatus(message, "failed");
    if (body.line) moveCaretTo(body.line, body.column);
  }
  renderWaterfall($("waterfall"), diagnostics);
}

async function runScript() {
  if (!adhoc) return setStatus("ad-hoc scripts are disabled on this gateway", "failed");
  setStatus("running…", "busy");
  const started = performance.now();
  try {
    const response = await api("/q?diagnostics=1", {method: "POST", body: editor.value,
      headers: {"content-type": "text/plain; charset=utf-8"}});
    await show(response, started);
  } catch (e) {
    setStatus(`cannot reach the gateway: ${e.message}`, "failed");
  }
}

async function tryRoute(method, url) {
  setStatus(`${method.toUpperCase()} ${url}…`, "busy");
  const started = performance.now();
  const target = url + (url.includes("?") ? "&" : "?") + "diagnostics=1";
  try {
    await show(await api(target, {method: method.toUpperCase()}), started);
  } catch (e) {
    setStatus(`cannot reach the gateway: ${e.message}`, "failed");
  }
}

editor.addEventListener("input", paint);
editor.addEventListener("scroll", () => { layer.scrollTop = editor.scrollTop; layer.scrollLeft = editor.scrollLeft; });
editor.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); runScript(); }
});
$("run").addEventListener("click", runScript);
$("expand").addEventListener("click", () => setAllOpen(result, true));
$("collapse").addEventListener("click", () => setAllOpen(result, false));
$("run").disabled = !adhoc;
$("adhoc-off").hidden = adhoc;
paint();

const completer = new Completer(editor, $("completions"), caretPoint);
const jobsView = new JobsView($("jobs-view"), $("jobs-tab"));
jobsView.available().catch(() => {});
const browser = new Browser({
  list: $("catalog"), filter: $("filter"), detail: $("detail"),
  tabs: [...document.querySelectorAll("#browser [role=tab]")],
  counts: {tables: $("table-count"), routes: $("route-count")},
  onTryTable: (example) => { editor.value = example; paint(); editor.focus(); },
  onTryRoute: tryRoute,
  onShow: (kind) => jobsView.show(kind === "jobs"),
});
browser.load().then((names) => { completer.names = names; document.body.dataset.ready = "true"; })
  .catch((e) => setStatus(`cannot load tables: ${e.message}`, "failed"));
