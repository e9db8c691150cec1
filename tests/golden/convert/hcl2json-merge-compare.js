// Compares `hclvm json --shape hcl2json --merge DIR` with @cdktf/hcl2json's
// convertFiles(DIR): reads lines "DIR<TAB>OURS" from the file named by
// argv[2], where OURS is hclvm's document or "-" when hclvm refused the
// directory. Both are compared through JSON.parse and JSON.stringify, as in
// hcl2json-compare.js. A directory both refuse agrees.
//
//   node hcl2json-merge-compare.js LIST      (@cdktf/hcl2json on NODE_PATH)
"use strict";
const fs = require("fs");
const { convertFiles } = require("@cdktf/hcl2json");

(async () => {
  const lines = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l);
  let same = 0, bothRefused = 0, differ = 0;
  for (const line of lines) {
    const [dir, ours] = line.split("\t");
    let theirs, theirError = null;
    try {
      theirs = JSON.stringify(await convertFiles(dir));
    } catch (e) {
      theirError = String(e.message || e).split("\n")[0];
    }
    if (ours === "-" || theirError !== null) {
      if (ours === "-" && theirError !== null) {
        bothRefused++;
      } else {
        differ++;
        console.log(`FAIL ${dir}: ` + (ours === "-" ? "hclvm refused, convertFiles converted"
                                                   : `convertFiles refused (${theirError.slice(0, 200)}), hclvm converted`));
      }
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
      console.log(`FAIL ${dir}: differs at ${i}:\n  hclvm:        ${mine.slice(at, i + 80)}\n  convertFiles: ${theirs.slice(at, i + 80)}`);
    }
  }
  console.log(`hcl2json-merge-compare: ${same} same, ${bothRefused} refused by both, ${differ} different`);
  process.exit(differ > 0 ? 1 : 0);
})();
