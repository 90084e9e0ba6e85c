// window.anotadorEngine: the server's rules engine on the phone (engine-worker.js runs it in
// Pyodide). Nothing loads until start(), warm() or score() is called.
//   start()         -> Promise, resolved once the engine is ready (idempotent), with how it
//                      started: "snapshot" (the started interpreter this phone keeps) or
//                      "scratch" (the first start, which keeps that snapshot)
//   warm()          -> starts the engine for a page that may have to score without a
//                      connection (the hand form)
//   score(document) -> Promise of {result, problems} for a match file (an object, or its
//                      JSON text, which keeps numbers beyond JavaScript's as they are): `result` is exactly what
//                      `anotador score` prints for the match file, null when a problem is an
//                      error; `problems` are [{path, code, params, severity, message}]
//   assetUrls()     -> the URLs a service worker caches so that start() works offline
//   available       -> false when this server has no Pyodide (npm was missing at install)
(function () {
  "use strict";
  const script = document.currentScript;
  const config = {
    worker: script.dataset.worker,
    rules: script.dataset.rules,
    stdlib: script.dataset.stdlib,
    pyodide: script.dataset.pyodide ? new URL(script.dataset.pyodide, location.href).href : "",
  };
  // What loadPyodide fetches from its folder (the Makefile copies exactly these).
  const PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
  ];
  // How many seconds a page waits for the service worker to keep the engine's files.
  const KEPT_CHECKS = 60;
  // How long a page waits for a service worker to be active before starting the engine itself.
  const NO_WORKER_MS = 3000;
  let worker = null;
  let nextId = 0;
  const waiting = new Map();

  function call(text, ifKept) {
    if (!config.pyodide) {
      return Promise.reject(new Error("This server cannot score without a connection."));
    }
    if (!worker) {
      worker = new Worker(config.worker, { type: "module" });
      worker.addEventListener("message", (event) => {
        const { id, ok, value, error } = event.data;
        const pending = waiting.get(id);
        waiting.delete(id);
        if (pending) (ok ? pending.resolve(value) : pending.reject(new Error(error)));
      });
      worker.addEventListener("error", (event) => {
        for (const pending of waiting.values()) pending.reject(new Error(event.message || "engine"));
        waiting.clear();
        worker = null;
      });
    }
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, config, text, ifKept });
    });
  }

  function assetUrls() {
    if (!config.pyodide) return [];
    return [config.worker, config.rules].concat(PYODIDE_FILES.map((name) => config.pyodide + name));
  }

  function kept() {
    return Promise.all(assetUrls().map((url) => caches.match(url))).then((found) => found.every(Boolean));
  }

  function whenKept(start) {
    let checks = KEPT_CHECKS;
    function check() {
      kept().then((all) => {
        if (all) start();
        else if (--checks > 0) setTimeout(check, 1000);
      }, start);
    }
    const noWorker = setTimeout(start, NO_WORKER_MS);
    navigator.serviceWorker.ready.then(() => {
      clearTimeout(noWorker);
      check();
    }, () => {});
  }

  window.anotadorEngine = {
    available: Boolean(config.pyodide),
    start() {
      return call(undefined);
    },
    warm() {
      if (!config.pyodide) return;
      const start = () => call(undefined).catch(() => {});
      // Online too: the signal may be gone though the browser says otherwise, or drop while
      // the hand is typed, and without a service worker (plain HTTP on the LAN, or one the
      // browser blocks) this page is the only one that can score then.
      if (!navigator.onLine || !("serviceWorker" in navigator)) {
        start();
        return;
      }
      // Under a service worker, once it keeps the engine's files (it fetches them in the
      // background): the start then downloads nothing of its own. Kept already (any visit
      // after the first), the engine's worker starts at once: it reads the cache itself, off
      // this page's thread, which is busy loading the page. Else, once the service worker
      // keeps them; one that is not active a few seconds in never will be: the page starts
      // the engine itself.
      call(undefined, assetUrls()).then((from) => {
        if (from === null) whenKept(start);
      }, () => whenKept(start));
    },
    score(document) {
      return call(typeof document === "string" ? document : JSON.stringify(document));
    },
    assetUrls,
  };
})();
