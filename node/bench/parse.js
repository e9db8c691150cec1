// hclvm's parse() against @cdktf/hcl2json's, both warm, in the same run:
// every accepted native file of the real corpus (RESULTS-newest.tsv) and
// corpus_10m.tf, one pass of warm-up, then the best of PASSES passes.
// Prints a markdown table. Not a timed test.
//
//   NODE_PATH=<dir with @cdktf/hcl2json> HCLVM_NODE_ADDON=<hclvm.node> \
//     node node/bench/parse.js SHARED_DIR CORPUS_DIR [PASSES]
'use strict';
const fs = require('fs');
const path = require('path');
const hclvm = require('../lib/index.js');

function realCorpus(shared) {
  const base = path.join(shared, 'corpus');
  const lines = fs.readFileSync(path.join(base, 'RESULTS-newest.tsv'), 'utf-8').split('\n').slice(1);
  const out = [];
  for (const line of lines) {
    const cols = line.split('\t');
    if (cols.length > 3 && cols[1] === 'native' && cols[3] === 'ok')
      out.push([cols[0], fs.readFileSync(path.join(base, cols[0]), 'utf-8')]);
  }
  return out;
}

async function pass(parse, files) {
  for (const [name, text] of files) {
    try {
      await parse(name, text);
    } catch {
      // refused files count as read
    }
  }
}

async function best(parse, files, passes) {
  await pass(parse, files);
  let min = Infinity;
  for (let i = 0; i < passes; i++) {
    const t0 = process.hrtime.bigint();
    await pass(parse, files);
    min = Math.min(min, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return min;
}

async function main() {
  const [shared, corpus, passesArg] = process.argv.slice(2);
  const passes = Number(passesArg || '3');
  const inputs = [['real corpus (accepted native files)', realCorpus(shared)]];
  const big = path.join(corpus, 'corpus_10m.tf');
  if (fs.existsSync(big)) inputs.push(['corpus_10m.tf', [['corpus_10m.tf', fs.readFileSync(big, 'utf-8')]]]);
  let hcl2json = null;
  try {
    hcl2json = require('@cdktf/hcl2json');
  } catch {
    // hclvm alone
  }
  console.log('| input | bytes | @cdktf/hcl2json ms | hclvm ms | ratio |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, files] of inputs) {
    const bytes = files.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);
    const ours = await best(hclvm.parse, files, passes);
    const theirs = hcl2json ? await best(hcl2json.parse, files, passes) : NaN;
    const ratio = hcl2json ? `${(theirs / ours).toFixed(1)}x` : 'n/a';
    console.log(`| ${name} | ${bytes.toLocaleString('en-US')} | ${theirs.toFixed(0)} | ${ours.toFixed(0)} | ${ratio} |`);
  }
}

main();
