// Compares `hclvm json --shape hcl2json` with @cdktf/hcl2json's parse():
// reads lines "NATIVE<TAB>OURS" from the file named by argv[2], where OURS
// is hclvm's document, or "-" when hclvm refused the file. Both documents
// are compared as parse() returns them: our text through JSON.parse, then
// both through JSON.stringify (so the same keys in the same order, the
// same numbers as doubles). A file both refuse agrees.
//
//   node hcl2json-compare.js LIST      (@cdktf/hcl2json on NODE_PATH)
//
// Prints "FAIL NATIVE: reason" for each disagreement, then a summary line;
// exits 1 when some file disagrees.
"use strict";
const fs = require("fs");
const { parse } = require("@cdktf/hcl2json");

(async () => {
  const lines = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l);
  let same = 0, bothRefused = 0, differ = 0;
  for (const line of lines) {
    const [native, ours] = line.split("\t");
    let theirs, theirError = null;
    try {
      theirs = JSON.stringify(await parse(native, fs.readFileSync(native, "utf8")));
    } catch (e) {
      theirError = String(e.message || e).split("\n")[0];
    }
    if (ours === "-") {
      if (theirError !== null) {
        bothRefused++;
      } else {
        differ++;
        console.log(`FAIL ${native}: hclvm refused, hcl2json converted`);
      }
      continue;
    }
    if (theirError !== null) {
      differ++;
      console.log(`FAIL ${native}: hcl2json refused (${theirError.slice(0, 200)}), hclvm converted`);
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
      console.log(`FAIL ${native}: differs at ${i}:\n  hclvm:    ${mine.slice(at, i + 80)}\n  hcl2json: ${theirs.slice(at, i + 80)}`);
    }
  }
  console.log(`hcl2json-compare: ${same} same, ${bothRefused} refused by both, ${differ} different`);
  process.exit(differ > 0 ? 1 : 0);
})();
