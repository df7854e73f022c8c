// The console: write a script (and its variables), run it through /q, see the result and
// its upstream calls. The script and variables are kept in this browser (state.js) and
// travel in a link ("Share"); a fresh console starts from one of the gateway's own tables.

import {highlight, escapeHtml} from "./highlight.js";
import {renderTree, setAllOpen} from "./jsontree.js";
import {renderWaterfall} from "./waterfall.js";
import {Completer} from "./completion.js";
import {Browser} from "./browser.js";
import {JobsView} from "./jobs.js";
import {api} from "./api.js";
import {VariablesPanel} from "./variables.js";
import {kept, keep, shared, shareLink} from "./state.js";
import {defaultScript} from "./examples.js";

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

// A script that has not run yet (a table's example, just put in the editor) shows no
// result: the last run's, an error above all, would read as this script's.
function clearResult(note) {
  result.replaceChildren(Object.assign(document.createElement("p"), {className: "placeholder", textContent: note}));
  renderWaterfall($("waterfall"), undefined);
  setStatus("");
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

const variables = new VariablesPanel({
  panel: $("vars"), rows: $("vars-rows"), add: $("vars-add"), count: $("vars-count"), onChange: remember,
});

// Kept on every change. A shared link's fragment goes once the script changes: a reload
// then shows the script as it is now, not as it was shared.
function remember() {
  keep(editor.value, variables.pairs());
  if (window.location.hash) history.replaceState(null, "", window.location.pathname + window.location.search);
}

async function share() {
  const link = shareLink(editor.value, variables.pairs());
  history.replaceState(null, "", link);
  const input = $("share-link");
  input.value = link;
  $("share-box").hidden = false;
  input.select();
  let note = "copied to the clipboard";
  try {
    await navigator.clipboard.writeText(link);
  } catch {
    note = "copy the link (Ctrl+C)";
  }
  $("share-note").textContent = note;
}

async function runScript() {
  if (!adhoc) return setStatus("ad-hoc scripts are disabled on this gateway", "failed");
  const problem = variables.problem();
  if (problem) return setStatus(`variables: ${problem}`, "failed");
  setStatus("running…", "busy");
  const started = performance.now();
  try {
    const response = await api("/q?diagnostics=1" + variables.query(), {method: "POST", body: editor.value,
      headers: {"content-type": "text/plain; charset=utf-8"}});
    await show(response, started);
  } catch (e) {
    setStatus(`cannot reach the gateway: ${e.message}`, "failed");
  }
}

async function tryRoute(method, url) {
  clearResult("");
  setStatus(`${method.toUpperCase()} ${url}…`, "busy");
  const started = performance.now();
  const target = url + (url.includes("?") ? "&" : "?") + "diagnostics=1";
  try {
    await show(await api(target, {method: method.toUpperCase()}), started);
  } catch (e) {
    setStatus(`cannot reach the gateway: ${e.message}`, "failed");
  }
}

editor.addEventListener("input", () => { paint(); remember(); });
editor.addEventListener("scroll", () => { layer.scrollTop = editor.scrollTop; layer.scrollLeft = editor.scrollLeft; });
editor.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); runScript(); }
});
$("vars").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); runScript(); }
});
$("run").addEventListener("click", runScript);
$("share").addEventListener("click", share);
$("expand").addEventListener("click", () => setAllOpen(result, true));
$("collapse").addEventListener("click", () => setAllOpen(result, false));
$("run").disabled = !adhoc;
$("adhoc-off").hidden = adhoc;

// where the console starts: a shared link, else what this browser kept, else (once the
// tables are known) an example of one of them
const link = shared(window.location.hash);
const start = link || kept();
if (start) {
  editor.value = start.script;
  variables.set(start.variables);
  if (link) keep(link.script, link.variables);
}
paint();

const completer = new Completer(editor, $("completions"), caretPoint);
const jobsView = new JobsView($("jobs-view"), $("jobs-tab"));
jobsView.available().catch(() => {});
const browser = new Browser({
  list: $("catalog"), filter: $("filter"), detail: $("detail"),
  tabs: [...document.querySelectorAll("#browser [role=tab]")],
  counts: {tables: $("table-count"), routes: $("route-count")}, shown: $("catalog-count"),
  onTryTable: (script, {run = false, variables: extra = []} = {}) => {
    clearResult("Not run yet: Run ▶ or Ctrl+Enter in the editor runs this script.");
    editor.value = script;
    variables.merge(extra);
    paint();
    remember();
    editor.focus();
    if (run) runScript();
  },
  onTryRoute: tryRoute,
  onShow: (kind) => jobsView.show(kind === "jobs"),
});
browser.load().then((names) => {
  completer.names = names;
  if (!start && !editor.value) { editor.value = defaultScript(browser.items.tables); paint(); }
  document.body.dataset.ready = "true";
})
  .catch((e) => setStatus(`cannot load tables: ${e.message}`, "failed"));
