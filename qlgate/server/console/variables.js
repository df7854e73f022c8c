// The variables panel: name/value pairs sent with the script. /q reads a request's
// query parameters as variables (spec §5.2, the request layer), so a pair travels as
// `?name=value`: a script reads it as "{name}", its value is text, and a name given
// twice is a list of both values.

// query parameters the gateway reads itself (handlers.RESERVED_QUERY): never variables
export const RESERVED = new Set(["callback", "events", "format", "s", "diagnostics"]);
const NAME = /^[A-Za-z_$][\w$]*$/;

export function problemOf(name) {
  if (RESERVED.has(name)) return `"${name}" is a parameter of the gateway itself, not a variable`;
  if (!NAME.test(name)) return `"${name}" is not a variable name (letters, digits, _ and $; not a digit first)`;
  return "";
}

export class VariablesPanel {
  constructor({panel, rows, add, count, onChange}) {
    Object.assign(this, {panel, rows, count, onChange});
    add.addEventListener("click", () => { this.addRow("", ""); this.changed(); this.rows.lastElementChild.querySelector("input").focus(); });
  }

  // [[name, value], …], rows with an empty name left out
  pairs() {
    return [...this.rows.children].map((row) => [row.querySelector(".var-name").value.trim(), row.querySelector(".var-value").value])
      .filter(([name]) => name);
  }

  set(pairs) {
    this.rows.replaceChildren();
    for (const [name, value] of pairs) this.addRow(name, value);
    if (pairs.length) this.panel.open = true;
    this.mark();
  }

  // merged in by name: "try it" adds the values it could not write into the script
  merge(pairs) {
    for (const [name, value] of pairs) {
      const row = [...this.rows.children].find((r) => r.querySelector(".var-name").value.trim() === name);
      if (row) row.querySelector(".var-value").value = value;
      else this.addRow(name, value);
    }
    if (pairs.length) this.panel.open = true;
    this.changed();
  }

  // what keeps the script from being sent, or "" when nothing does
  problem() {
    for (const [name] of this.pairs()) {
      const problem = problemOf(name);
      if (problem) return problem;
    }
    return "";
  }

  // the query string to add to /q: "&a=1&b=2"
  query() {
    return this.pairs().map(([n, v]) => `&${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join("");
  }

  addRow(name, value) {
    const row = document.createElement("div");
    row.className = "var-row";
    const nameInput = Object.assign(document.createElement("input"), {className: "var-name", value: name, placeholder: "name", spellcheck: false});
    const valueInput = Object.assign(document.createElement("input"), {className: "var-value", value, placeholder: "value", spellcheck: false});
    nameInput.setAttribute("aria-label", "variable name");
    valueInput.setAttribute("aria-label", "variable value");
    const remove = Object.assign(document.createElement("button"), {type: "button", className: "var-remove quiet", textContent: "×", title: "remove"});
    remove.setAttribute("aria-label", "remove this variable");
    remove.addEventListener("click", () => { row.remove(); this.changed(); });
    for (const input of [nameInput, valueInput]) input.addEventListener("input", () => this.changed());
    row.append(nameInput, valueInput, remove);
    this.rows.append(row);
  }

  changed() {
    this.mark();
    this.onChange?.();
  }

  mark() {
    for (const row of this.rows.children) {
      const name = row.querySelector(".var-name").value.trim();
      const problem = name ? problemOf(name) : "";
      row.classList.toggle("invalid", Boolean(problem));
      row.title = problem;
    }
    const n = this.pairs().length;
    this.count.textContent = n ? `(${n})` : "";
  }
}
