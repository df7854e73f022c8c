// The upstream calls of one run on a shared time axis: overlapping bars ran in parallel.

function ms(value) {
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
}

export function renderWaterfall(container, diagnostics) {
  container.replaceChildren();
  if (!diagnostics) return;
  const calls = [...(diagnostics.calls || [])].sort((a, b) => a.start_ms - b.start_ms);
  const summary = document.createElement("p");
  summary.className = "wf-summary";
  summary.textContent = `${calls.length} upstream call${calls.length === 1 ? "" : "s"} · script ${ms(diagnostics.total_ms)}` +
    ` · sum of calls ${ms(diagnostics.calls_ms)} · parallelism ×${diagnostics.parallelism}` +
    (diagnostics.coalesced ? ` · ${diagnostics.coalesced} coalesced` : "");
  container.append(summary);
  if (!calls.length) return;
  const span = Math.max(diagnostics.total_ms, ...calls.map((c) => c.end_ms), 0.001);
  const axis = document.createElement("div");
  axis.className = "wf-axis";
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const tick = document.createElement("span");
    tick.style.left = `${f * 100}%`;
    tick.textContent = ms(f * span);
    axis.append(tick);
  }
  const rows = document.createElement("div");
  rows.className = "wf-rows";
  rows.append(rowOf(document.createElement("span"), axis));
  for (const call of calls) {
    const failed = Boolean(call.error) || (call.status ?? 0) >= 400;
    const label = document.createElement("span");
    label.className = "wf-label";
    label.textContent = `${call.table.split(".").slice(-2).join(".")} ${call.status ?? "✕"}`;
    label.title = `${call.method} ${call.table}`;
    const track = document.createElement("div");
    track.className = "wf-track";
    const bar = document.createElement("div");
    bar.className = failed ? "wf-bar wf-failed" : "wf-bar";
    bar.style.left = `${(call.start_ms / span) * 100}%`;
    bar.style.width = `${Math.max((call.duration_ms / span) * 100, 0.4)}%`;
    bar.title = `${call.method} ${call.url}\n${call.status ?? call.error}\n` +
      `${ms(call.start_ms)} → ${ms(call.end_ms)} (${ms(call.duration_ms)}), ${call.bytes ?? 0} bytes`;
    const time = document.createElement("span");
    time.className = call.end_ms / span > 0.8 ? "wf-time wf-time-before" : "wf-time";
    time.textContent = ms(call.duration_ms);
    bar.append(time);
    track.append(bar);
    const row = rowOf(label, track);
    row.classList.add("wf-call");
    if (failed) row.classList.add("failed");
    rows.append(row);
  }
  container.append(rows);
}

function rowOf(label, track) {
  const row = document.createElement("div");
  row.className = "wf-row";
  row.append(label, track);
  return row;
}
