// The call rates of the jobs view: each API type's rate (GET /rates, what `qlgate jobs
// rates` shows) and, for a daily quota, what is left of today's (GET /limits: every
// upstream call of the type counts, jobs' and callers' alike, in every process).

import {escapeHtml} from "./highlight.js";

const number = new Intl.NumberFormat("en-US");

// "5000/day@America/Los_Angeles" (how /limits writes a rate) as /rates gives it
function parsed(text) {
  const m = /^(\d+)\/(second|day)(?:@(.+))?$/.exec(text || "");
  return m ? {calls: Number(m[1]), per: m[2], timeZone: m[3] || (m[2] === "day" ? "UTC" : undefined)} : null;
}

// one row per type with a rate: {type, calls, per, timeZone, left}
export function rateRows(rates, limits) {
  const rows = new Map();
  for (const [type, rate] of Object.entries(rates || {})) if (rate) rows.set(type, {type, ...rate});
  for (const [type, usage] of Object.entries(limits || {})) {
    const calls = usage.calls || {};
    if (!rows.has(type) && parsed(calls.rate)) rows.set(type, {type, ...parsed(calls.rate)});
    if (rows.has(type) && calls.leftToday !== undefined) rows.get(type).left = calls.leftToday;
  }
  return [...rows.values()].sort((a, b) => a.type.localeCompare(b.type));
}

function rateText(row) {
  const per = row.per === "day" ? `a day${row.timeZone ? ` (${row.timeZone})` : ""}` : "a second";
  return `${number.format(row.calls)} calls ${per}`;
}

function leftCell(row) {
  if (row.per !== "day") return '<span class="jobs-count">no daily quota</span>';
  if (row.left === undefined) return '<span class="jobs-count">not counted yet (no call of this type today)</span>';
  const share = row.calls ? Math.min(row.left / row.calls, 1) : 0;
  return `<span class="jobs-bar" title="${row.left} of ${row.calls} left today"><span data-share="${share}"></span></span>` +
    `<span class="jobs-count">${number.format(row.left)} of ${number.format(row.calls)}</span>`;
}

// the section's HTML; `unavailable`: this key may not read the rates
export function ratesHtml(rows, unavailable) {
  if (unavailable) return '<p class="jobs-count">the rates are not readable with this API key (scope jobs)</p>';
  if (!rows.length) return '<p class="jobs-count">no call rates set (<code>qlgate jobs rates TYPE 20/s</code>, or <code>PUT /rates/TYPE</code>)</p>';
  return "<table><tr><th>type</th><th>rate</th><th>left today</th></tr>" + rows.map((row) =>
    `<tr data-type="${escapeHtml(row.type)}"><td><code>${escapeHtml(row.type)}</code></td>` +
    `<td class="rate">${escapeHtml(rateText(row))}</td><td class="left">${leftCell(row)}</td></tr>`).join("") + "</table>";
}
