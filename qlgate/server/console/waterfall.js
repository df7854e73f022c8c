// The upstream calls of one run on a shared time axis: overlapping bars ran in parallel.
// A bar's colour says where its answer came from (sent upstream, the response cache — hatched
// when stale — or shared with an identical call of another request in flight); time a call
// waited before it was sent (back-off, Retry-After, queueing for its API type's limits) is a
// segment of its own just before the bar, not call time. A call the run gave up on (another
// statement failed first) is hatched grey and says "cancelled", not a 0 ms success. Hovering
// or focusing a row (Tab reaches each) shows its method, URL (masked as the gateway gives it)
// and the line of the statement that made it, in the lines below the rows.

const SOURCES = {
  sent: {label: "sent", title: "sent upstream"},
  cache: {label: "cache", title: "answered from the response cache"},
  stale: {label: "stale cache", title: "answered from the response cache, past its freshness (renewed in the background)"},
  coalesced: {label: "shared", title: "shared the identical call of another request in flight"},
  failed: {label: "failed", title: "failed"},
  cancelled: {label: "cancelled", title: "cancelled: the run stopped waiting for it when another statement failed"},
};

const WAITS = {
  backoff: {label: "back-off / Retry-After", title: (t) => `waited ${t} before sending: back-off (its table was failing)`},
  "retry-after": {label: "back-off / Retry-After", title: (t) => `waited ${t} before sending again: the upstream's Retry-After`},
  queued: {label: "queued for limits", title: (t) => `queued ${t} for its API type's limits (call rate, calls in flight)`},
};

function ms(value) {
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function sourceOf(call) {
  if (call.source === "cache") return call.stale ? "stale" : "cache";
  return call.source === "coalesced" ? "coalesced" : "sent";
}

function isFailed(call) {
  return Boolean(call.error) || (call.status ?? 0) >= 400;
}

function outcomeOf(call) {
  if (call.cancelled) return "cancelled";
  return isFailed(call) ? "failed" : sourceOf(call);
}

// What a row says on hover and focus: the call, its URL, its statement's line, its timing.
function describe(call) {
  const outcome = call.cancelled ? SOURCES.cancelled.title : `${call.status ?? call.error} · ${SOURCES[sourceOf(call)].title}`;
  return `${call.method} ${call.url}\n${call.line ? `line ${call.line} · ` : ""}${call.table} · ${outcome}\n` +
    `${ms(call.start_ms)} → ${ms(call.end_ms)} (${ms(call.duration_ms)}), ${call.bytes ?? 0} bytes` +
    waitsOf(call).map((w) => `\n${WAITS[w.kind].title(ms(w.ms))}`).join("");
}

// What waited before the call went out, earliest first, each {kind, ms}: a Retry-After
// wait comes before the call queues again for its limits; queueing comes before a back-off.
function waitsOf(call) {
  const waited = call.waited_ms > 0 ? {kind: call.wait === "retry-after" ? "retry-after" : "backoff", ms: call.waited_ms} : null;
  const queued = call.queued_ms > 0 ? {kind: "queued", ms: call.queued_ms} : null;
  const order = call.wait === "retry-after" ? [waited, queued] : [queued, waited];
  return order.filter(Boolean);
}

function summaryText(diagnostics, calls) {
  const count = (kind) => calls.filter((c) => sourceOf(c) === kind).length;
  const sent = diagnostics.sent ?? count("sent");
  const cached = diagnostics.cache_hits ?? count("cache") + count("stale");
  const shared = diagnostics.shared ?? count("coalesced");
  const stale = count("stale");
  const cancelled = calls.filter((c) => c.cancelled).length;
  const waited = diagnostics.waited_ms ?? calls.reduce((t, c) => t + (c.waited_ms || 0), 0);
  const queued = diagnostics.queued_ms ?? calls.reduce((t, c) => t + (c.queued_ms || 0), 0);
  const parts = [
    `${sent} sent upstream`,
    cached ? `${cached} from cache${stale ? ` (${stale} stale)` : ""}` : "",
    shared ? `${shared} shared with another request` : "",
    diagnostics.coalesced ? `${diagnostics.coalesced} coalesced` : "",
    cancelled ? `${cancelled} cancelled` : "",
    `script ${ms(diagnostics.total_ms)}`,
    `sum of calls ${ms(diagnostics.calls_ms)}`,
    `parallelism ×${diagnostics.parallelism}`,
    waited ? `waited ${ms(waited)} (back-off, Retry-After)` : "",
    queued ? `queued ${ms(queued)} for limits` : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

function legendOf(calls) {
  const kinds = new Set(calls.map(outcomeOf));
  const waits = new Set(calls.flatMap((c) => waitsOf(c).map((w) => (w.kind === "queued" ? "queued" : "backoff"))));
  const legend = el("ul", "wf-legend");
  legend.setAttribute("aria-label", "Legend");
  for (const kind of Object.keys(SOURCES).filter((k) => kinds.has(k))) {
    legend.append(legendItem(`wf-${kind}`, SOURCES[kind].label, SOURCES[kind].title));
  }
  for (const kind of ["backoff", "queued"].filter((k) => waits.has(k))) {
    legend.append(legendItem(`wf-wait-${kind}`, WAITS[kind].label, WAITS[kind].label));
  }
  return legend;
}

function legendItem(swatchClass, label, title) {
  const item = el("li", "", "");
  item.title = title;
  item.append(el("span", `wf-swatch ${swatchClass}`), label);
  return item;
}

function axisOf(span) {
  const axis = el("div", "wf-axis");
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const tick = el("span", f === 0.25 || f === 0.75 ? "wf-minor" : "", ms(f * span));
    tick.style.left = `${f * 100}%`;
    axis.append(tick);
  }
  return axis;
}

function place(node, from, length, span) {
  node.style.left = `${(Math.max(from, 0) / span) * 100}%`;
  node.style.width = `${Math.max((length / span) * 100, 0.4)}%`;
}

function waitSegments(call, span) {
  const waits = waitsOf(call);
  let at = call.start_ms - waits.reduce((t, w) => t + w.ms, 0);
  return waits.map((w) => {
    const segment = el("div", `wf-wait wf-wait-${w.kind === "queued" ? "queued" : "backoff"}`);
    segment.dataset.wait = w.kind;
    segment.title = WAITS[w.kind].title(ms(w.ms));
    place(segment, at, w.ms, span);
    at += w.ms;
    return segment;
  });
}

function barOf(call, span) {
  const source = sourceOf(call);
  const mark = call.cancelled ? " wf-cancelled" : isFailed(call) ? " wf-failed" : "";
  const bar = el("div", `wf-bar wf-${source}${mark}`);
  bar.dataset.source = source;
  place(bar, call.start_ms, call.duration_ms, span);
  bar.title = describe(call);
  const time = el("span", `wf-time${timePlace(call, span)}`, `${call.cancelled ? "cancelled · " : ""}${ms(call.duration_ms)}`);
  bar.append(time);
  return bar;
}

// Where a bar's duration goes: after the bar, else before it, else (a bar across
// nearly the whole axis) inside it — never over the label column or past the pane.
function timePlace(call, span) {
  if (call.end_ms / span <= 0.8) return "";
  const waited = waitsOf(call).reduce((t, w) => t + w.ms, 0);
  return (call.start_ms - waited) / span >= 0.2 ? " wf-time-before" : " wf-time-inside";
}

function callRow(call, span) {
  const outcome = call.cancelled ? "cancelled" : call.status ?? "✕";
  const label = el("span", "wf-label", `${call.table.split(".").slice(-2).join(".")} ${outcome}`);
  const track = el("div", "wf-track");
  const waits = waitSegments(call, span);
  const bar = barOf(call, span);
  // a duration written before its bar goes before the waits too, not over them
  const time = bar.querySelector(".wf-time-before");
  if (time && waits.length) waits[0].append(time);
  track.append(...waits, bar);
  const row = rowOf(label, track);
  row.classList.add("wf-call", `wf-src-${sourceOf(call)}`);
  if (call.cancelled) row.classList.add("cancelled");
  else if (isFailed(call)) row.classList.add("failed");
  row.title = describe(call);  // the pointer's tooltip; focus shows it below the rows too
  row.tabIndex = 0;
  row.setAttribute("role", "listitem");
  row.setAttribute("aria-label", describe(call).replaceAll("\n", "; "));
  return row;
}

// The lines below the rows: the hovered or focused call, else how to get one there.
function pointing(rows) {
  const shown = el("p", "wf-detail", HINT);  // (a focused row's own label is what is read out)
  const show = (e) => {
    const row = e.target.closest?.(".wf-call");
    if (row) shown.textContent = row.title;
  };
  // the pointer gone, the focused row (if any) is shown again; focus gone, the hint
  const reset = (e) => {
    if (rows.contains(e.relatedTarget)) return;
    const focused = e.type === "mouseleave" ? rows.querySelector(".wf-call:focus") : null;
    shown.textContent = focused ? focused.title : HINT;
  };
  rows.addEventListener("mouseover", show);
  rows.addEventListener("focusin", show);
  rows.addEventListener("mouseleave", reset);
  rows.addEventListener("focusout", reset);
  return shown;
}

const HINT = "Point at a call (or Tab to it) for its URL and the line of its statement.";

export function renderWaterfall(container, diagnostics) {
  container.replaceChildren();
  if (!diagnostics) return;
  const calls = [...(diagnostics.calls || [])].sort((a, b) => a.start_ms - b.start_ms);
  container.append(el("p", "wf-summary", summaryText(diagnostics, calls)));
  if (!calls.length) return;
  container.append(legendOf(calls));
  const span = Math.max(diagnostics.total_ms, ...calls.map((c) => c.end_ms), 0.001);
  const rows = el("div", "wf-rows");
  rows.setAttribute("role", "list");
  rows.setAttribute("aria-label", "Upstream calls");
  const axis = rowOf(el("span"), axisOf(span));
  axis.setAttribute("aria-hidden", "true");
  rows.append(axis);
  for (const call of calls) rows.append(callRow(call, span));
  container.append(rows, pointing(rows));  // below the rows: showing it moves none of them
}

function rowOf(label, track) {
  const row = el("div", "wf-row");
  row.append(label, track);
  return row;
}
