// Compares `hclvm json --shape hcl2json` with @cdktf/hcl2json's parse(),
// or with --dirs `hclvm json --shape hcl2json --merge DIR` with its
// convertFiles(DIR): reads lines "INPUT<TAB>OURS" from the file named by
// argv[2], where INPUT is a native file (a directory with --dirs) and OURS
// hclvm's document, or "-" when hclvm refused it. Both documents are
// compared as @cdktf/hcl2json returns them: our text through JSON.parse,
// then both through JSON.stringify (so the same keys in the same order,
// the same numbers as doubles). An input both refuse agrees.
//
//   node hcl2json-compare.js LIST [--dirs]     (@cdktf/hcl2json on NODE_PATH)
//
// Prints "FAIL NATIVE: reason" for each disagreement, then a summary line;
// exits 1 when some file disagrees.
"use strict";
const fs = require("fs");
const { parse, convertFiles } = require("@cdktf/hcl2json");
const dirs = process.argv[3] === "--dirs";
const label = dirs ? "convertFiles" : "hcl2json";

(async () => {
  const lines = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l);
  let same = 0, bothRefused = 0, differ = 0;
  for (const line of lines) {
    const [native, ours] = line.split("\t");
    let theirs, theirError = null;
    try {
      theirs = JSON.stringify(dirs ? await convertFiles(native) : await parse(native, fs.readFileSync(native, "utf8")));
    } catch (e) {
      theirError = String(e.message || e).split("\n")[0];
    }
    if (ours === "-") {
      if (theirError !== null) {
        bothRefused++;
      } else {
        differ++;
        console.log(`FAIL ${native}: hclvm refused, ${label} converted`);
      }
      continue;
    }
    if (theirError !== null) {
      differ++;
      console.log(`FAIL ${native}: ${label} refused (${theirError.slice(0, 200)}), hclvm converted`);
      continue;
    }
    const mine = JSON.stringify(JSON.parse(fs.readFileSync(ours, "utf8")));
    if (mine === theirs) {
      same++;
    } else {
      differ++;
      let i = 0;
      while (i < mine.length && mine[i] === theirs[i]) i++;
      const at = Math.max(0, i - 60);
      console.log(`FAIL ${native}: differs at ${i}:\n  hclvm: ${mine.slice(at, i + 80)}\n  ${label}: ${theirs.slice(at, i + 80)}`);
    }
  }
  console.log(`hcl2json-compare${dirs ? " --dirs" : ""}: ${same} same, ${bothRefused} refused by both, ${differ} different`);
  process.exit(differ > 0 ? 1 : 0);
})();
