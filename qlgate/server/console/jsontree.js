// A collapsible tree of a JSON value: objects and arrays are <details> elements.

const OPEN_DEPTH = 2;   // levels open at first; the rest one click away

function leaf(value) {
  const el = document.createElement("span");
  if (value === null) { el.className = "json-null"; el.textContent = "null"; }
  else if (typeof value === "string") { el.className = "json-str"; el.textContent = JSON.stringify(value); }
  else if (typeof value === "number") { el.className = "json-num"; el.textContent = String(value); }
  else if (typeof value === "boolean") { el.className = "json-bool"; el.textContent = String(value); }
  else { el.textContent = String(value); }
  return el;
}

function keyLabel(key) {
  const el = document.createElement("span");
  el.className = "json-key";
  el.textContent = typeof key === "number" ? `${key}` : key;
  return el;
}

function node(key, value, depth) {
  const isArray = Array.isArray(value);
  if (value === null || typeof value !== "object") {
    const row = document.createElement("div");
    row.className = "json-leaf";
    if (key !== undefined) row.append(keyLabel(key), ": ");
    row.append(leaf(value));
    return row;
  }
  const entries = isArray ? value.map((v, i) => [i, v]) : Object.entries(value);
  const details = document.createElement("details");
  details.open = depth < OPEN_DEPTH;
  const summary = document.createElement("summary");
  if (key !== undefined) summary.append(keyLabel(key), ": ");
  const size = document.createElement("span");
  size.className = "json-size";
  size.textContent = isArray ? `[${entries.length}]` : `{${entries.length}}`;
  summary.append(size);
  details.append(summary);
  const children = document.createElement("div");
  children.className = "json-children";
  for (const [k, v] of entries) children.append(node(k, v, depth + 1));
  details.append(children);
  return details;
}

export function renderTree(container, value) {
  container.replaceChildren(node(undefined, value, 0));
}

export function setAllOpen(container, open) {
  for (const d of container.querySelectorAll("details")) d.open = open;
}
