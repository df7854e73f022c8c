// Scripts the console offers, written only from the tables this gateway has: the first
// script of a fresh console, and "try it" examples whose blanks ("…", where the table
// needs a value nobody wrote an example for) the user fills in before anything runs.

import {RESERVED} from "./variables.js";

export const BLANK = "\u2026";  // what the describe page writes where a value is needed

const WRITES = /\b(insert|update|delete)\b/i;

// The first script of a console with nothing kept or shared: a table's own example
// that runs as it is and only reads (one with a where clause first: those show what
// the table wants). `tables` is GET /tables, whose rows carry `example` where it runs as is.
export function defaultScript(tables) {
  const runnable = tables.filter((t) => t.example && !t.example.includes(BLANK) && !WRITES.test(t.example));
  const picked = runnable.find((t) => /\bwhere\b/i.test(t.example)) || runnable[0];
  if (!picked) {
    return "-- This gateway has no table with an example to start from.\n" +
      "-- Ctrl+Enter runs the script; table names are offered as you type.\n" +
      'return {"hello": "world"};';
  }
  return `-- The example of ${picked.name}: Ctrl+Enter runs it.\n` + statementPerLine(picked.example);
}

// "a = …; return …" as one statement a line: a `;` outside quotes ends a line
function statementPerLine(text) {
  let out = "";
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") { out += c + (text[++i] ?? ""); continue; }
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === ";" && /\s/.test(text[i + 1] ?? "")) {
      out += ";\n";
      while (/\s/.test(text[i + 1] ?? "")) i++;
      continue;
    }
    out += c;
  }
  return out;
}

// The blanks of an example, in order, each named after what it stands for: the column
// of `name = "…"`, or of its place in `insert into t (a, b) values ("…", "…")`.
export function blanks(example) {
  const found = [];
  const quoted = `"${BLANK}"`;
  for (let at = example.indexOf(quoted); at >= 0; at = example.indexOf(quoted, at + quoted.length)) {
    const before = example.slice(0, at);
    const assigned = before.match(/([A-Za-z_$][\w$.]*)\s*=\s*$/);
    let name = assigned ? assigned[1] : null;
    if (!name) {
      const insert = before.match(/\(([^()]*)\)\s*values\s*\(([^()]*)$/i);
      if (insert) {
        const columns = insert[1].split(",").map((c) => c.trim());
        name = columns[insert[2].split(",").length - 1] || null;
      }
    }
    found.push({name: name || `value ${found.length + 1}`, at});
  }
  return found;
}

// Clause text has no escapes (spec §2.5): a value goes in double quotes, or single ones
// when it holds a double quote. A value those cannot carry — both quotes, or a brace that
// would be read as an interpolation — goes in as a variable of the request instead.
export function fillIn(example, values) {
  const spots = blanks(example);
  const variables = [];
  let out = "";
  let from = 0;
  spots.forEach((spot, i) => {
    const value = values[i] ?? "";
    out += example.slice(from, spot.at);
    from = spot.at + BLANK.length + 2;
    if (!/[{}]/.test(value) && !value.includes('"')) out += `"${value}"`;
    else if (!/[{}]/.test(value) && !value.includes("'")) out += `'${value}'`;
    else {
      const name = variableName(spot.name, variables);
      variables.push([name, value]);
      out += `"{${name}}"`;
    }
  });
  return {script: out + example.slice(from), variables};
}

function variableName(column, taken) {
  let base = column.replace(/[^\w$]/g, "_").replace(/^(\d)/, "_$1") || "value";
  if (RESERVED.has(base)) base = `${base}_value`;
  let name = base;
  for (let n = 2; taken.some(([t]) => t === name); n++) name = `${base}${n}`;
  return name;
}
