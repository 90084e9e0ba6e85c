// The rules engine in a worker: Pyodide runs anotador/rules (the server's own Python, sent
// as one zip by /motor/reglas-<digest>.zip), so a phone without a connection computes totals
// and opening minimums exactly as the server would. A module worker, started by engine.js.
//
// Starting Python and importing the rules takes seconds on a phone (almost all of it is the
// interpreter's own start-up), so the first start keeps a memory snapshot of the started
// interpreter with the rules imported (Pyodide's _makeSnapshot/_loadSnapshot) in IndexedDB,
// which plain HTTP has too; later starts restore it, a fraction of a second. The snapshot is
// kept for the rules bundle's URL (its digest) and Pyodide's version: other rules or another
// version make a new one, which replaces it; one Pyodide refuses (another build) is made again.
const DATABASE = "anotador-engine";
const SNAPSHOTS = "snapshots";
// Every module of the bundle is imported before the snapshot: a restored interpreter has the
// standard library's files but not the bundle's.
const SETUP = `
import importlib, json, pkgutil, sys
sys.path.insert(0, "/engine")
import anotador.rules
for module in pkgutil.iter_modules(anotador.rules.__path__, "anotador.rules."):
    importlib.import_module(module.name)
from anotador.rules.api import score_document
def score_json(text):
    return json.dumps(score_document(text), ensure_ascii=False)
`;
const RESTORED = "import importlib; importlib.invalidate_caches()";

let loaded = null;

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function database() {
  const opening = indexedDB.open(DATABASE, 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore(SNAPSHOTS);
  return done(opening);
}

// The snapshot kept for these rules and the Pyodide version that made it, or null (none yet,
// or no IndexedDB: a private window). Kept as a Blob: read back as one, its bytes come several
// times faster than an array's.
async function keptSnapshot(rules) {
  try {
    const db = await database();
    try {
      const kept = await done(db.transaction(SNAPSHOTS).objectStore(SNAPSHOTS).get(rules));
      return kept ? { version: kept.version, bytes: await kept.snapshot.arrayBuffer() } : null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

// Kept alone: an older bundle's snapshot goes. A refusal (storage full) only means the next
// start makes one again.
async function keepSnapshot(rules, version, snapshot) {
  try {
    const db = await database();
    const transaction = db.transaction(SNAPSHOTS, "readwrite");
    const store = transaction.objectStore(SNAPSHOTS);
    store.clear();
    store.put({ version, snapshot: new Blob([snapshot]) }, rules);
    await new Promise((resolve, reject) => {
      transaction.oncomplete = resolve;
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
    db.close();
  } catch {
    // started all the same
  }
}

async function fromScratch(loadPyodide, version, config) {
  const [pyodide, bundle] = await Promise.all([
    loadPyodide({ indexURL: config.pyodide, _makeSnapshot: true }),
    fetch(config.rules).then((response) => {
      if (!response.ok) throw new Error("rules bundle: HTTP " + response.status);
      return response.arrayBuffer();
    }),
  ]);
  pyodide.unpackArchive(bundle, "zip", { extractDir: "/engine" });
  pyodide.runPython(SETUP);
  await keepSnapshot(config.rules, version, pyodide.makeMemorySnapshot());
  return pyodide;
}

// The engine's scoring function and how it started: "snapshot" or "scratch".
function load(config) {
  if (!loaded) {
    loaded = (async () => {
      // The kept snapshot is read while Pyodide's scripts load (the larger one, imported
      // here first, is the one loadPyodide imports).
      const [{ loadPyodide, version }, , snapshot] = await Promise.all([
        import(config.pyodide + "pyodide.mjs"),
        import(config.pyodide + "pyodide.asm.mjs"),
        keptSnapshot(config.rules),
      ]);
      if (snapshot && snapshot.version === version) {
        try {
          const pyodide = await loadPyodide({ indexURL: config.pyodide, _loadSnapshot: snapshot.bytes });
          // The standard library's zip may have changed since (a new release of the files
          // beside Pyodide): an import still to come reads its index again.
          pyodide.runPython(RESTORED);
          return { scoreJson: pyodide.globals.get("score_json"), from: "snapshot" };
        } catch {
          // refused by Pyodide (another build's): made again below
        }
      }
      const pyodide = await fromScratch(loadPyodide, version, config);
      return { scoreJson: pyodide.globals.get("score_json"), from: "scratch" };
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
    const engine = await load(config);
    const value = text === undefined ? engine.from : JSON.parse(engine.scoreJson(text));
    self.postMessage({ id, ok: true, value });
  } catch (error) {
    self.postMessage({ id, ok: false, error: String(error && error.message ? error.message : error) });
  }
});
