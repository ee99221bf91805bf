// Bundles the Data Explorer (web/) into one directory of static files that `orrery
// serve` reads at start and serves at /_explorer/:
//   node web/build.mjs [out-dir]      (default build/explorer; `make explorer`)
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] || path.join(here, "..", "build", "explorer"));
fs.mkdirSync(out, { recursive: true });
await build({
  entryPoints: [path.join(here, "src", "main.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  outfile: path.join(out, "app.js"),
  logLevel: "warning",
});
for (const file of ["index.html", "style.css"]) {
  fs.copyFileSync(path.join(here, file), path.join(out, file));
}
console.log(`explorer: ${fs.readdirSync(out).join(", ")} in ${out}`);
