// The tables and routes of the gateway, their describe pages, and "try it" (an example
// with blanks asks for their values first: see examples.js).

import {escapeHtml} from "./highlight.js";
import {api} from "./api.js";
import {blanks, fillIn} from "./examples.js";

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
    const spots = blanks(t.example);
    this.detail.querySelector("#try-it").addEventListener("click", () => {
      if (!spots.length) return this.onTryTable(t.example);
      this.askFor(spots.map((spot) => spot.name), (values) => {
        const {script, variables} = fillIn(t.example, values);
        this.onTryTable(script, {run: true, variables});
      });
    });
  }

  // The example has blanks (required values nobody wrote an example for): ask for them
  // first, so that nothing is sent with a placeholder in it; `done(values)` runs it.
  askFor(names, done) {
    this.detail.querySelector("#try-form")?.remove();
    const form = document.createElement("form");
    form.id = "try-form";
    form.innerHTML = "<p>This example needs a value for each of these:</p>" + names.map((name, i) =>
      `<label>${escapeHtml(name)} <input name="blank-${i}" required spellcheck="false" autocomplete="off"></label>`).join("") +
      '<button type="submit">Run</button> <button type="button" class="quiet" id="try-cancel">Cancel</button>';
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const values = names.map((_, i) => form.elements[`blank-${i}`].value);
      form.remove();
      done(values);
    });
    form.querySelector("#try-cancel").addEventListener("click", () => form.remove());
    this.detail.querySelector("#try-it").after(form);
    form.querySelector("input").focus();
  }

  renderRoute(r) {
    this.detail.innerHTML = `<h3>${escapeHtml(r.method.toUpperCase())} ${escapeHtml(r.path)}</h3>` +
      `<div class="info">${sanitized(r.info || "")}</div>` +
      `<label>request <input id="route-url" value="${escapeHtml(r.example)}" spellcheck="false"></label>` +
      `<button id="try-it">Try it</button><p>${(r.tables || []).map((t) =>
        `<a href="${escapeHtml(t)}" target="_blank">${escapeHtml(decodeURIComponent(t.split("name=")[1] || t))}</a>`).join(" ")}</p>`;
    const input = this.detail.querySelector("#route-url");
    this.detail.querySelector("#try-it").addEventListener("click", () => {
      // the pattern's {names} still in the request: values to ask for, not text to send
      const names = [...new Set([...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))]
        .filter((name) => input.value.includes(`{${name}}`));
      if (!names.length) return this.onTryRoute(r.method, input.value);
      this.askFor(names, (values) => {
        names.forEach((name, i) => { input.value = input.value.split(`{${name}}`).join(encodeURIComponent(values[i])); });
        this.onTryRoute(r.method, input.value);
      });
    });
  }
}
