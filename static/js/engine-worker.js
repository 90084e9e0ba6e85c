// The rules engine in a worker: Pyodide runs anotador/rules (the server's own Python, sent
// as one zip by /motor/reglas-<digest>.zip), so a phone without a connection computes totals
// and opening minimums exactly as the server would. A module worker, started by engine.js;
// loading takes seconds, which the page never waits for on its own first load.
let loaded = null;

function load(config) {
  if (!loaded) {
    loaded = (async () => {
      const { loadPyodide } = await import(config.pyodide + "pyodide.mjs");
      const pyodide = await loadPyodide({ indexURL: config.pyodide });
      const response = await fetch(config.rules);
      if (!response.ok) throw new Error("rules bundle: HTTP " + response.status);
      pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/engine" });
      pyodide.runPython(
        "import json, sys\n" +
          "sys.path.insert(0, '/engine')\n" +
          "from anotador.rules.api import score_document\n" +
          "def score_json(text):\n" +
          "    return json.dumps(score_document(text), ensure_ascii=False)\n",
      );
      return pyodide.globals.get("score_json");
    })();
    // A failed load (say, a file missing from the cache) may succeed on a later call.
    loaded.catch(() => {
      loaded = null;
    });
  }
  return loaded;
}

self.addEventListener("message", async (event) => {
  const { id, config, text } = event.data;
  try {
    const scoreJson = await load(config);
    const value = text === undefined ? null : JSON.parse(scoreJson(text));
    self.postMessage({ id, ok: true, value });
  } catch (error) {
    self.postMessage({ id, ok: false, error: String(error && error.message ? error.message : error) });
  }
});
