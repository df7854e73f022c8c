// The tables and routes of the gateway, their describe pages, and "try it".

import {escapeHtml} from "./highlight.js";
import {api} from "./api.js";

const ALLOWED_TAGS = new Set(["P", "CODE", "EM", "STRONG", "A", "UL", "OL", "LI", "PRE", "BR"]);

// Table and route comments are Markdown rendered on the server; keep only plain formatting.
function sanitized(html) {
  const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
  const walk = (el) => {
    for (const child of [...el.children]) {
      if (!ALLOWED_TAGS.has(child.tagName)) { child.replaceWith(document.createTextNode(child.textContent)); continue; }
      for (const attr of [...child.attributes]) {
        const safeLink = attr.name === "href" && /^(https?:|\/)/.test(attr.value);
        if (!safeLink) child.removeAttribute(attr.name);
      }
      walk(child);
    }
  };
  const root = doc.body.firstElementChild;
  walk(root);
  return root.innerHTML;
}

function paramRows(params) {
  return params.map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.required ? "required" : "optional"}` +
    `${p.multivalued ? ", many" : ""}</td><td>${p.default === undefined ? "" : escapeHtml(JSON.stringify(p.default))}</td></tr>`).join("");
}

export class Browser {
  constructor({list, filter, detail, tabs, counts, onTryTable, onTryRoute, onShow}) {
    Object.assign(this, {list, filter, detail, tabs, counts, onTryTable, onTryRoute, onShow});
    this.kind = "tables";
    this.items = {tables: [], routes: []};
    filter.addEventListener("input", () => this.renderList());
    for (const tab of tabs) tab.addEventListener("click", () => this.show(tab.dataset.kind));
  }

  async load() {
    const [tables, routes] = await Promise.all(["/tables?format=json", "/routes?format=json"].map(
      (url) => api(url).then((r) => r.json())));
    this.items = {tables, routes};
    this.counts.tables.textContent = tables.length;
    this.counts.routes.textContent = routes.length;
    this.renderList();
    return tables.map((t) => t.name);
  }

  show(kind) {
    for (const tab of this.tabs) tab.setAttribute("aria-selected", String(tab.dataset.kind === kind));
    const catalog = kind !== "jobs";
    this.filter.hidden = this.list.hidden = !catalog;
    this.detail.hidden = true;
    this.onShow?.(kind);
    if (!catalog) return;
    this.kind = kind;
    this.renderList();
  }

  label(item) {
    return this.kind === "tables" ? item.name : `${item.method.toUpperCase()} ${item.path}`;
  }

  renderList() {
    const needle = this.filter.value.trim().toLowerCase();
    const shown = this.items[this.kind].filter((item) => this.label(item).toLowerCase().includes(needle));
    this.list.replaceChildren(...shown.slice(0, 300).map((item) => {
      const li = document.createElement("li");
      li.className = this.kind === "tables" ? "table-item" : "route-item";
      li.textContent = this.label(item);
      li.tabIndex = 0;
      const open = () => this.open(item);
      li.addEventListener("click", open);
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") open(); });
      return li;
    }));
  }

  async open(item) {
    const described = await api(item.about + "&format=json").then((r) => r.json());
    this.detail.hidden = false;
    if (this.kind === "tables") this.renderTable(described);
    else this.renderRoute(described);
  }

  renderTable(t) {
    const verbs = ["select", "insert", "update", "delete"].filter((v) => t[v]).map((v) => {
      const m = t[v];
      return `<h4>${v} → ${escapeHtml(m.method.toUpperCase())}</h4><code class="uri">${escapeHtml(m.uri)}</code>` +
        (m.params.length ? `<table><tr><th>param</th><th></th><th>default</th></tr>${paramRows(m.params)}</table>` : "") +
        (m.resultset ? `<p>resultset <code>${escapeHtml(m.resultset)}</code></p>` : "") +
        (m.body ? `<p>body <code>${escapeHtml(m.body.template || m.body.type || "")}</code></p>` : "");
    }).join("");
    this.detail.innerHTML = `<h3>${escapeHtml(t.name)}</h3><div class="info">${sanitized(t.info || "")}</div>` +
      `<pre class="example">${escapeHtml(t.example)}</pre><button id="try-it">Try it</button>` + verbs +
      `<p><a href="${escapeHtml(t.about)}" target="_blank">describe page</a></p>`;
    this.detail.querySelector("#try-it").addEventListener("click", () => this.onTryTable(t.example));
  }

  renderRoute(r) {
    this.detail.innerHTML = `<h3>${escapeHtml(r.method.toUpperCase())} ${escapeHtml(r.path)}</h3>` +
      `<div class="info">${sanitized(r.info || "")}</div>` +
      `<label>request <input id="route-url" value="${escapeHtml(r.example)}" spellcheck="false"></label>` +
      `<button id="try-it">Try it</button><p>${(r.tables || []).map((t) =>
        `<a href="${escapeHtml(t)}" target="_blank">${escapeHtml(decodeURIComponent(t.split("name=")[1] || t))}</a>`).join(" ")}</p>`;
    const input = this.detail.querySelector("#route-url");
    this.detail.querySelector("#try-it").addEventListener("click", () => this.onTryRoute(r.method, input.value));
  }
}
