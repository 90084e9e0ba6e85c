// Pyodide's standard library compiled: `node scripts/compile-stdlib.mjs <pyodide folder> <zip>`
// writes to <zip> the folder's python_stdlib.zip with every module as bytecode (.pyc, no
// source) instead of source (.py). Pyodide ships sources, so a phone starting Python
// compiles each module it imports; that was most of the engine's first start (issue 25).
// Pyodide's own Python compiles them, so the bytecode is its version's. Unchecked hash-based
// .pyc files: nothing compares them with a source that is not there.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [folder, output] = process.argv.slice(2);
if (!folder || !output) {
  console.error("usage: node scripts/compile-stdlib.mjs <pyodide folder> <output zip>");
  process.exit(2);
}
const indexURL = path.resolve(folder) + path.sep;
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL });
pyodide.runPython(`
import compileall, io, os, py_compile, sys, zipfile

library = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
folder = "/tmp/stdlib"
with zipfile.ZipFile(library) as source:
    source.extractall(folder)
    entries = source.infolist()
if not compileall.compile_dir(
    folder,
    ddir=library,
    legacy=True,
    quiet=1,
    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
):
    raise SystemExit("a module of the standard library did not compile")
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as compiled:
    for entry in entries:
        name = entry.filename + "c" if entry.filename.endswith(".py") else entry.filename
        data = b""  # a folder's entry (zipimport finds namespace packages by them)
        if not entry.is_dir():
            with open(os.path.join(folder, name), "rb") as file:
                data = file.read()
        compiled.writestr(zipfile.ZipInfo(name, entry.date_time), data, zipfile.ZIP_DEFLATED)
compiled_zip = buffer.getvalue()
`);
writeFileSync(output, pyodide.globals.get("compiled_zip").toJs());
