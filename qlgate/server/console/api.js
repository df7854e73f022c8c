// Every request the console makes goes through here. On a gateway with API keys
// (gateway.auth) it sends the key the user gave, kept in this tab's session
// storage only, and asks for one when the gateway answers 401.

const STORAGE = "qlgate.apiKey";
let pending = null;      // one question at a time, however many requests are waiting

export async function api(url, options = {}) {
  let response;
  for (let attempt = 0; attempt < 3; attempt++) {
    const key = sessionStorage.getItem(STORAGE);
    const headers = {accept: "application/json", ...(options.headers || {})};
    if (key) headers.authorization = `Bearer ${key}`;
    response = await fetch(url, {...options, headers});
    if (response.status !== 401) return response;
    if (!(await askForKey(key ? "That key was not accepted." : ""))) return response;
  }
  return response;
}

function askForKey(note) {
  if (!pending) {
    pending = new Promise((resolve) => {
      const dialog = document.getElementById("key-dialog");
      const input = document.getElementById("key-input");
      document.getElementById("key-note").textContent = note;
      input.value = "";
      dialog.addEventListener("close", () => {
        const key = dialog.returnValue === "save" ? input.value.trim() : "";
        if (key) sessionStorage.setItem(STORAGE, key);
        pending = null;
        resolve(Boolean(key));
      }, {once: true});
      dialog.showModal();
      input.focus();
    });
  }
  return pending;
}
