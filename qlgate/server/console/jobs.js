// The job backend at a glance: the limiter master, workers, each type's call rate and
// what is left of its daily quota, its running jobs against its limit, and the latest
// jobs. Refreshed while it is on screen.

import {api} from "./api.js";
import {escapeHtml} from "./highlight.js";
import {rateRows, ratesHtml} from "./rates.js";

const REFRESH_MS = 1000;

function bar(running, limit) {
  if (limit === null || limit === undefined) return `<span class="jobs-count">${running} running, no limit</span>`;
  const share = limit === 0 ? 1 : Math.min(running / limit, 1);
  // widths are set through the DOM afterwards: the page's CSP refuses inline style attributes
  return `<span class="jobs-bar" title="${running} of ${limit}"><span data-share="${share}"></span></span>` +
    `<span class="jobs-count">${running} / ${limit}</span>`;
}

export class JobsView {
  constructor(container, tab) {
    this.container = container;
    this.tab = tab;
    this.timer = null;
  }

  async available() {
    const response = await api("/jobs/backend");
    this.tab.hidden = !response.ok;
    return response.ok;
  }

  show(visible) {
    this.container.hidden = !visible;
    clearTimeout(this.timer);
    if (visible) this.refresh();
  }

  async refresh() {
    try {
      const [backend, rates, limits] = await Promise.all(["/jobs/backend", "/rates", "/limits"].map((url) => api(url)));
      if (backend.ok) {
        const unavailable = !rates.ok || !limits.ok;
        const rows = unavailable ? [] : rateRows(await rates.json(), await limits.json());
        this.render(await backend.json(), ratesHtml(rows, unavailable));
      }
    } catch (e) {
      this.container.textContent = `cannot reach the job backend: ${e.message}`;
    }
    if (!this.container.hidden) this.timer = setTimeout(() => this.refresh(), REFRESH_MS);
  }

  render(state, rates) {
    const limits = Object.entries(state.limits).map(([type, v]) =>
      `<tr data-type="${escapeHtml(type)}"><td><code>${escapeHtml(type)}</code></td><td>${bar(v.running, v.limit)}</td>` +
      `<td class="waiting">${v.waiting}</td></tr>`).join("");
    const workers = Object.entries(state.workers).map(([name, w]) =>
      `<tr><td>${escapeHtml(name)}${name === state.master ? ' <span class="master">master</span>' : ""}</td>` +
      `<td>${w.busy} / ${w.slots}</td></tr>`).join("");
    const recent = state.recent.slice(0, 20).map((j) =>
      `<tr class="job-${escapeHtml(j.state)}"><td>${j.id}</td><td>${escapeHtml(j.state)}</td><td>${j.run}</td>` +
      `<td>${escapeHtml(j.types.join(", "))}</td></tr>`).join("");
    this.container.innerHTML =
      `<p class="jobs-head">${escapeHtml(state.backend === "LocalJobs" ? "embedded backend (SQLite)" : "ZooKeeper cluster")}` +
      ` · limiter master: <strong id="jobs-master">${escapeHtml(state.master ?? "none")}</strong></p>` +
      `<h4>Call rates</h4><div id="jobs-rates">${rates}</div>` +
      `<h4>Types</h4><table id="jobs-limits"><tr><th>type</th><th>running / limit</th><th>waiting</th></tr>${limits}</table>` +
      `<h4>Workers</h4><table id="jobs-workers"><tr><th>worker</th><th>busy / slots</th></tr>${workers}</table>` +
      `<h4>Latest jobs</h4><table id="jobs-recent"><tr><th>id</th><th>state</th><th>run</th><th>types</th></tr>${recent}</table>`;
    for (const fill of this.container.querySelectorAll("[data-share]")) fill.style.width = `${fill.dataset.share * 100}%`;
  }
}
