// The rules engine in a worker: Pyodide runs anotador/rules (the server's own Python, sent
// as one zip by /motor/reglas-<digest>.zip), so a phone without a connection computes totals
// and opening minimums exactly as the server would. A module worker, started by engine.js.
//
// Starting Python and importing the rules takes seconds on a phone (almost all of it is the
// interpreter's own start-up), so the first start keeps a memory snapshot of the started
// interpreter with the rules imported (Pyodide's _makeSnapshot/_loadSnapshot) in IndexedDB,
// which plain HTTP has too; later starts restore it, a fraction of a second. The snapshot is
// kept for the rules bundle's URL (its digest), the standard library's digest and Pyodide's
// version: other rules, another standard library (whose index the restored interpreter holds)
// or another version make a new one, which replaces it; one Pyodide refuses (another build)
// is made again.
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

let loaded = null;

function snapshotKey(config) {
  return config.rules + "#" + config.stdlib;
}

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
async function keptSnapshot(key) {
  try {
    const db = await database();
    try {
      const kept = await done(db.transaction(SNAPSHOTS).objectStore(SNAPSHOTS).get(key));
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
//
// Kept only once whole: where IndexedDB lives in memory (an incognito tab, every Playwright
// context), Chromium commits the put while the Blob's bytes are still on their way from this
// worker, and a page closed meanwhile leaves a Blob no one can read (NotReadableError: the
// next start would make the snapshot again). A read of the stored copy waits for the whole
// Blob, so its last byte is read back before the start counts as done.
async function keepSnapshot(key, version, snapshot) {
  try {
    const db = await database();
    try {
      const transaction = db.transaction(SNAPSHOTS, "readwrite");
      const store = transaction.objectStore(SNAPSHOTS);
      store.clear();
      store.put({ version, snapshot: new Blob([snapshot]) }, key);
      await new Promise((resolve, reject) => {
        transaction.oncomplete = resolve;
        transaction.onerror = transaction.onabort = () => reject(transaction.error);
      });
      const stored = await done(db.transaction(SNAPSHOTS).objectStore(SNAPSHOTS).get(key));
      await stored.snapshot.slice(-1).arrayBuffer();
    } finally {
      db.close();
    }
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
  await keepSnapshot(snapshotKey(config), version, pyodide.makeMemorySnapshot());
  return pyodide;
}

// The kept snapshot's read, begun early by a start that checks the cache first (the read
// needs nothing downloaded). Taken by the next load and by nothing else: a start that finds
// the files not kept drops it (the snapshot may be made or replaced while the service worker
// fetches them), so a load never restores from a read older than its own start.
let reading = null;
function readSnapshotEarly(config) {
  if (!reading) reading = keptSnapshot(snapshotKey(config));
}
function takeSnapshotRead(config) {
  const read = reading || keptSnapshot(snapshotKey(config));
  reading = null;
  return read;
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
        takeSnapshotRead(config),
      ]);
      if (snapshot && snapshot.version === version) {
        try {
          const pyodide = await loadPyodide({ indexURL: config.pyodide, _loadSnapshot: snapshot.bytes });
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

// Whether the service worker keeps every one of ``urls`` (read here, off the page's busy
// thread): a start that would download them itself waits for it instead.
async function kept(urls) {
  try {
    const found = await Promise.all(urls.map((url) => caches.match(url)));
    return found.every(Boolean);
  } catch {
    return false; // no Cache Storage here
  }
}

self.addEventListener("message", async (event) => {
  const { id, config, text, ifKept } = event.data;
  try {
    if (ifKept && !loaded) {
      readSnapshotEarly(config); // meanwhile: IndexedDB, nothing downloaded
      if (!(await kept(ifKept))) {
        reading = null;
        self.postMessage({ id, ok: true, value: null });
        return;
      }
    }
    const engine = await load(config);
    const value = text === undefined ? engine.from : JSON.parse(engine.scoreJson(text));
    self.postMessage({ id, ok: true, value });
  } catch (error) {
    self.postMessage({ id, ok: false, error: String(error && error.message ? error.message : error) });
  }
});
