// qlgate's sandbox prelude (qlgate/js/sandbox.py): the first code of every context.
// It leaves the script nothing of the host: the context has no host functions at all, the
// clock reads the time the call began (set by the host per call, whole seconds), and
// require() knows only the relative .js files the host read when the table loaded.
(function (g) {
  "use strict";
  var RealDate = g.Date;
  var now = 0;
  var SandboxDate = new Proxy(RealDate, {
    construct: function (target, args, newTarget) {
      return args.length ? Reflect.construct(target, args, newTarget) : new target(now);
    },
    apply: function () {
      return new RealDate(now).toString();
    },
    get: function (target, key) {
      return key === "now" ? function () { return now; } : target[key];
    }
  });
  RealDate.prototype.constructor = SandboxDate;
  g.Date = SandboxDate;
  delete g.__date_clock;

  // ---------------------------------------------------------------- require()
  var factories = {}, cache = {};

  function dirname(path) {
    var i = path.lastIndexOf("/");
    return i <= 0 ? "/" : path.slice(0, i);
  }

  function resolve(from, name) {
    var parts = (dirname(from) + "/" + name).split("/"), out = [];
    for (var i = 0; i < parts.length; i++) {
      if (parts[i] === "" || parts[i] === ".") continue;
      if (parts[i] === "..") out.pop(); else out.push(parts[i]);
    }
    var path = "/" + out.join("/");
    return /\.js$/.test(path) ? path : path + ".js";
  }

  function requireFrom(from) {
    return function require(name) {
      if (typeof name !== "string" || !/^\.\.?\//.test(name)) {
        throw new Error("require(" + JSON.stringify(String(name)) + "): the sandbox has no modules; " +
                        "only relative .js files inside the tables tree may be required");
      }
      var path = resolve(from, name);
      if (!(path in factories)) {
        throw new Error("require(" + JSON.stringify(name) + "): no such file inside the tables tree " +
                        "(a name is looked up when the table loads: it must be a string literal)");
      }
      return load(path);
    };
  }

  function load(path) {
    if (!(path in cache)) {
      var module = { exports: {}, id: path };
      cache[path] = module;
      factories[path].call(module.exports, module, module.exports, requireFrom(path));
    }
    return cache[path].exports;
  }

  // ---------------------------------------------------------------- MutableURI, as ql.io's patches use it
  function decode(text) {
    try { return decodeURIComponent(text.replace(/\+/g, " ")); } catch (e) { return text; }
  }

  function MutableURI(text) {
    if (!text) throw new Error("URL is undefined");
    var hash = "", query = "", head = String(text), i = head.indexOf("#");
    if (i >= 0) { hash = head.slice(i); head = head.slice(0, i); }
    i = head.indexOf("?");
    if (i >= 0) { query = head.slice(i + 1); head = head.slice(0, i); }
    var params = {};
    query.split("&").forEach(function (pair) {
      if (!pair) return;
      var j = pair.indexOf("="), k = decode(j < 0 ? pair : pair.slice(0, j)), v = j < 0 ? "" : decode(pair.slice(j + 1));
      if (!(k in params)) params[k] = v;
      else if (Array.isArray(params[k])) params[k].push(v);
      else params[k] = [params[k], v];
    });
    function need(what, value) { if (!value) throw new Error(what + " is undefined"); }
    this.addParam = function (name, value) {
      need("name", name); need("value", value);
      var old = params[name];
      if (old === undefined) params[name] = value;
      else if (Array.isArray(old)) old.push(value);
      else params[name] = [old, value];
    };
    this.getParam = function (name) { need("name", name); return params[name]; };
    this.removeParam = function (name, value) {
      need("name", name);
      var old = params[name];
      if (Array.isArray(old) && value !== undefined) {
        var at = old.indexOf(value);
        if (at >= 0) old.splice(at, 1);
        if (old.length === 1) params[name] = old[0];
      } else {
        delete params[name];
      }
    };
    this.setParam = function (name, value) { this.removeParam(name); this.addParam(name, value); };
    this.params = function () { return params; };
    this.removeEmptyParams = function () {
      Object.keys(params).forEach(function (k) { if (params[k] === "") delete params[k]; });
    };
    this.format = function () {
      var pairs = [];
      Object.keys(params).forEach(function (k) {
        [].concat(params[k]).forEach(function (v) {
          pairs.push(encodeURIComponent(k) + "=" + encodeURIComponent(v === undefined || v === null ? "" : String(v)));
        });
      });
      return head + (pairs.length ? "?" + pairs.join("&") : "") + hash;
    };
    this.toString = this.format;
  }

  // ---------------------------------------------------------------- output escaping of EJS templates
  var escapes = {
    // EJS 0.8's own (what ql.io's XML bodies got): an entity already written is kept
    xml: function (v) {
      return String(v).replace(/&(?!\w+;)/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    },
    json: function (v) { return JSON.stringify(String(v)).slice(1, -1); },
    none: function (v) { return String(v); }
  };

  // ---------------------------------------------------------------- the host's entry points
  var state = { line: 0 };
  Object.defineProperty(g, "__qlgate", {
    value: Object.freeze({
      define: function (path, factory) { factories[path] = factory; },
      main: function (path) { return load(path); },
      MutableURI: MutableURI,
      escapes: escapes,
      state: state,
      setNow: function (t) { now = t; }
    })
  });
})(globalThis);
