// What the console keeps: the script and the variables in this browser's local storage
// (for this gateway's origin), so a reload or a new tab starts where the user left off;
// and a link that carries them ("Share"), in the URL's fragment — the fragment is never
// sent to the gateway, so a shared script reaches nobody's logs on the way.

const SCRIPT = "qlgate.script";
const VARIABLES = "qlgate.variables";

function pairsOf(text) {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value.filter((p) => Array.isArray(p) && p.length === 2).map(([n, v]) => [String(n), String(v)]) : [];
  } catch {
    return [];
  }
}

// {script, variables} kept by the last visit, or null
export function kept() {
  try {
    const script = localStorage.getItem(SCRIPT);
    if (script === null) return null;
    return {script, variables: pairsOf(localStorage.getItem(VARIABLES) || "[]")};
  } catch {
    return null;  // storage refused (private mode, a policy): the console still works
  }
}

export function keep(script, variables) {
  try {
    localStorage.setItem(SCRIPT, script);
    localStorage.setItem(VARIABLES, JSON.stringify(variables));
  } catch {
    // full or refused: nothing to keep it in
  }
}

// {script, variables} in a shared link's fragment (#s=…&v=…), or null
export function shared(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const script = params.get("s");
  if (script === null) return null;
  return {script, variables: pairsOf(params.get("v") || "[]")};
}

export function shareLink(script, variables) {
  const params = new URLSearchParams({s: script});
  if (variables.length) params.set("v", JSON.stringify(variables));
  const url = new URL(window.location.href);
  url.hash = params.toString();
  return url.toString();
}
