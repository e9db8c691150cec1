// @cdktf/hcl2json's parse(filename, contents) timed in process, warm:
// every file of a list converted once per pass, after one pass of warm-up.
// Prints one JSON line: {"files", "bytes", "errors", "passes_ms": [...]}.
//
//   NODE_PATH=... node bench/hcl2json_bench.js LIST PASSES
//
// LIST: a file of paths, one a line. bench/compare_convert.py runs it.
"use strict";
const fs = require("fs");
const { parse } = require("@cdktf/hcl2json");

async function pass(files) {
  let errors = 0;
  for (const [name, text] of files) {
    try {
      await parse(name, text);
    } catch (e) {
      errors++;
    }
  }
  return errors;
}

async function main() {
  const [list, passesArg] = process.argv.slice(2);
  const passes = Number(passesArg || "3");
  const files = fs
    .readFileSync(list, "utf-8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((p) => [p, fs.readFileSync(p, "utf-8")]);
  const bytes = files.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);
  const errors = await pass(files); // warm-up
  const times = [];
  for (let i = 0; i < passes; i++) {
    const t0 = process.hrtime.bigint();
    await pass(files);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(JSON.stringify({ files: files.length, bytes, errors, passes_ms: times }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
