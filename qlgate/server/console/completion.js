// Table names offered as you type, where a table name can go.

const TABLE_CONTEXT = /\b(from|into|describe|update|join|table)\s+$/i;
const MAX_SHOWN = 12;

export function candidates(names, textBeforeCaret) {
  const word = /[\w.$]*$/.exec(textBeforeCaret)[0];
  const before = textBeforeCaret.slice(0, textBeforeCaret.length - word.length);
  if (!TABLE_CONTEXT.test(before)) return {word, names: []};
  const needle = word.toLowerCase();
  const rank = (name) => {
    const lower = name.toLowerCase();
    if (lower.startsWith(needle)) return 0;
    if (lower.split(".").some((part, i, parts) => parts.slice(i).join(".").startsWith(needle))) return 1;
    return lower.includes(needle) ? 2 : -1;
  };
  const ranked = names.map((n) => [rank(n), n]).filter(([r]) => r >= 0)
    .sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  return {word, names: ranked.slice(0, MAX_SHOWN).map(([, n]) => n)};
}

export class Completer {
  constructor(textarea, list, caretPoint) {
    this.textarea = textarea;
    this.list = list;
    this.caretPoint = caretPoint;     // () => {left, top} of the caret inside the editor
    this.names = [];
    this.shown = [];
    this.active = 0;
    this.word = "";
    textarea.addEventListener("input", () => this.update());
    textarea.addEventListener("blur", () => setTimeout(() => this.close(), 150));
    textarea.addEventListener("keydown", (e) => this.onKey(e));
    list.addEventListener("mousedown", (e) => {
      const item = e.target.closest("li");
      if (item) { e.preventDefault(); this.accept(Number(item.dataset.index)); }
    });
  }

  update() {
    const caret = this.textarea.selectionStart;
    if (caret !== this.textarea.selectionEnd) return this.close();
    const {word, names} = candidates(this.names, this.textarea.value.slice(0, caret));
    if (!names.length || (names.length === 1 && names[0] === word)) return this.close();
    this.word = word;
    this.shown = names;
    this.active = 0;
    this.list.replaceChildren(...names.map((name, i) => {
      const li = document.createElement("li");
      li.role = "option";
      li.dataset.index = i;
      li.textContent = name;
      return li;
    }));
    const {left, top} = this.caretPoint();
    this.list.style.left = `${left}px`;
    this.list.style.top = `${top}px`;
    this.list.hidden = false;
    this.highlight();
  }

  highlight() {
    [...this.list.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === this.active)));
    this.list.children[this.active]?.scrollIntoView({block: "nearest"});
  }

  onKey(e) {
    if (this.list.hidden) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      this.active = (this.active + step + this.shown.length) % this.shown.length;
      this.highlight();
    } else if (e.key === "Enter" || e.key === "Tab") {
      if (e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      this.accept(this.active);
    } else if (e.key === "Escape") {
      this.close();
    }
  }

  accept(index) {
    const name = this.shown[index];
    if (name === undefined) return;
    const t = this.textarea;
    const caret = t.selectionStart;
    t.setRangeText(name, caret - this.word.length, caret, "end");
    t.dispatchEvent(new Event("input"));
    this.close();
    t.focus();
  }

  close() {
    this.list.hidden = true;
    this.shown = [];
  }
}
