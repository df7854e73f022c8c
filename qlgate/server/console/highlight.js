// Syntax colouring of ql text, as HTML for the layer under the editor.

const KEYWORDS = new Set(("aliases and as at auth authenticate bodytemplate catch create defaults delete desc describe " +
  "do else expect expires false finally foreach from get headers if in insert into limit method not null offset on " +
  "optional params parts patch post put resultset return route routes select set show table tables throw to true try " +
  "type update using values via where with").split(" "));

// comment | string | {interpolation} outside a string | number | word | anything else
const TOKEN = /(--[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)|(\{\^?[A-Za-z_$][\w.$[\]]*\})|(\d+(?:\.\d+)?)|([A-Za-z_$][\w$]*)|([\s\S])/g;

export function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
}

function span(cls, text) {
  return `<span class="${cls}">${escapeHtml(text)}</span>`;
}

function quoted(text) {
  // interpolations such as {itemid} or {^keywords} stand out inside strings
  let out = "";
  let last = 0;
  for (const m of text.matchAll(/\{[^{}\n]*\}/g)) {
    out += escapeHtml(text.slice(last, m.index)) + span("tok-var", m[0]);
    last = m.index + m[0].length;
  }
  return `<span class="tok-str">${out}${escapeHtml(text.slice(last))}</span>`;
}

export function highlight(text) {
  let html = "";
  for (const m of text.matchAll(TOKEN)) {
    const [whole, comment, string, interp, number, word] = m;
    if (comment) html += span("tok-comment", comment);
    else if (string) html += quoted(string);
    else if (interp) html += span("tok-var", interp);
    else if (number) html += span("tok-num", number);
    else if (word) html += KEYWORDS.has(word.toLowerCase()) ? span("tok-kw", word) : escapeHtml(word);
    else html += escapeHtml(whole);
  }
  return html;
}
