// The tables and routes of the gateway, their describe pages, and "try it" (an example
// with blanks asks for their values first: see examples.js). Every table the filter matches
// is listed (a gateway has hundreds: a cut-off list hid most of them without a word), and a
// line above the list says how many match; ↑/↓ move through it, Enter opens one.

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
  constructor({list, filter, detail, tabs, counts, shown, onTryTable, onTryRoute, onShow}) {
    Object.assign(this, {list, filter, detail, tabs, counts, shown, onTryTable, onTryRoute, onShow});
    this.kind = "tables";
    this.items = {tables: [], routes: []};
    this.rows = new Map();  // li → its item
    filter.addEventListener("input", () => this.renderList());
    for (const tab of tabs) tab.addEventListener("click", () => this.show(tab.dataset.kind));
    // one listener for the whole list, however long it is
    list.addEventListener("click", (e) => this.openRow(e.target.closest("li")));
    list.addEventListener("focusin", (e) => {  // a row clicked or focused becomes the Tab stop
      if (e.target.tagName !== "LI") return;
      for (const li of list.querySelectorAll("li[tabindex='0']")) li.tabIndex = -1;
      e.target.tabIndex = 0;
    });
    list.addEventListener("keydown", (e) => this.onListKey(e));
  }

  openRow(li) {
    const item = li && this.rows.get(li);
    if (!item) return;
    this.opened = item;
    this.open(item);
  }

  // One row at a time is in the Tab order (Tab goes on to the details, not through 500
  // rows); ↑/↓, Home and End move it.
  onListKey(e) {
    const li = e.target.closest("li");
    if (!li) return;
    const rows = this.list;
    const next = {ArrowDown: li.nextElementSibling, ArrowUp: li.previousElementSibling,
      Home: rows.firstElementChild, End: rows.lastElementChild}[e.key];
    if (e.key === "Enter") this.openRow(li);
    else if (next) { e.preventDefault(); next.focus(); }
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
    this.filter.hidden = this.list.hidden = this.shown.hidden = !catalog;
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
    const all = this.items[this.kind];
    const shown = all.filter((item) => this.label(item).toLowerCase().includes(needle));
    const className = this.kind === "tables" ? "table-item" : "route-item";
    this.rows = new Map();
    this.list.replaceChildren(...shown.map((item, i) => {
      const li = document.createElement("li");
      li.className = className;
      li.textContent = this.label(item);
      li.tabIndex = i === 0 ? 0 : -1;
      this.rows.set(li, item);
      return li;
    }));
    const noun = this.kind === "tables" ? "table" : "route";
    const plural = (n) => `${n.toLocaleString("en")} ${noun}${n === 1 ? "" : "s"}`;
    this.shown.textContent = !needle ? plural(all.length)
      : `${shown.length.toLocaleString("en")} of ${plural(all.length)} match “${this.filter.value.trim()}”`;
  }

  async open(item) {
    const described = await api(item.about + "&format=json").then((r) => r.json());
    this.detail.hidden = false;
    if (this.kind === "tables") this.renderTable(described);
    else this.renderRoute(described);
    this.detail.setAttribute("aria-label", `${this.kind === "tables" ? "Table" : "Route"} details`);
    this.detail.scrollTop = 0;
    const close = document.createElement("button");
    Object.assign(close, {type: "button", className: "close", textContent: "×", title: "Close (Esc)"});
    close.setAttribute("aria-label", "Close the details");
    close.addEventListener("click", () => this.closeDetail());
    this.detail.prepend(close);
    this.detail.onkeydown = (e) => { if (e.key === "Escape") this.closeDetail(); };
  }

  // back to the list, at the row the details were opened from (if the filter still shows it)
  closeDetail() {
    this.detail.hidden = true;
    for (const [li, item] of this.rows) if (item === this.opened) return li.focus();
  }

  renderTable(t) {
    const verbs = ["select", "insert", "update", "delete"].filter((v) => t[v]).map((v) => {
      const m = t[v];
      return `<h4>${v} → ${escapeHtml(m.method.toUpperCase())}</h4><code class="uri">${escapeHtml(m.uri)}</code>` +
        (m.params.length ? `<table><tr><th>param</th><th></th><th>default</th></tr>${paramRows(m.params)}</table>` : "") +
        (m.resultset ? `<p>resultset <code>${escapeHtml(m.resultset)}</code></p>` : "") +
        (m.body ? `<p>body <code>${escapeHtml(m.body.template || m.body.type || "")}</code></p>` : "");
    }).join("");
    // the example and "Try it" first: a long description no longer pushes them out of sight
    this.detail.innerHTML = `<h3>${escapeHtml(t.name)}</h3>` +
      `<pre class="example">${escapeHtml(t.example)}</pre><button id="try-it">Try it</button>` +
      `<div class="info">${sanitized(t.info || "")}</div>` + verbs +
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
