#!/usr/bin/env node
// Writes src/syntax/ident_utf8.re: the re2c definitions ID_Start and
// ID_Continue that lexer.re uses for identifiers.
//
// The reference scanner does not decode UTF-8 to find identifier
// characters: it matches byte sequences generated from each line of
// Unicode's DerivedCoreProperties.txt, and its generator widens the
// continuation bytes of a multi-byte range to 0x00-0xFF wherever the range
// spans several lead or middle bytes. So some invalid byte sequences (e.g.
// "\xC4=") are one identifier character there. To scan exactly as the
// reference does, this script rebuilds the same byte sequences from the same
// Unicode data, line by line: the widening depends on where the lines of the
// data file break.
//
// Usage (Unicode 9.0.0, the version of the reference's tables: hcl v2.24.0
// and its main branch still scan identifiers with tables generated from
// Unicode 9.0.0; built from it, this script's output has the reference's
// byte sequences, all of them in the same order):
//   node scripts/gen_ident_tables.mjs DerivedCoreProperties.txt > src/syntax/ident_utf8.re
//   node scripts/gen_ident_tables.mjs DIR > src/syntax/ident_utf8.re
// where DIR is the unpacked npm package @unicode/unicode-9.0.0
// (`npm pack @unicode/unicode-9.0.0`). From the package, the lines are
// rebuilt: DerivedCoreProperties.txt has one line per run of consecutive code
// points with the same general category, cased letters (Lu, Ll, Lt) counting
// as one category.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const PROPERTIES = ['ID_Start', 'ID_Continue'];
const LENGTH_LIMITS = [0x7f, 0x7ff, 0xffff, 0x10ffff];

// Returns {property: [[first, last], ...]} from the UCD text file [file].
function linesFromText(file) {
  const out = Object.fromEntries(PROPERTIES.map((p) => [p, []]));
  const re = /^([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*;\s*(\w+)\s*#/;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = re.exec(line);
    if (m && out[m[3]]) {
      const first = parseInt(m[1], 16);
      out[m[3]].push([first, m[2] ? parseInt(m[2], 16) : first]);
    }
  }
  return out;
}

// Returns {property: [[first, last], ...]} rebuilt from the npm package in [dir].
async function linesFromPackage(dir) {
  const load = async (rel) =>
    (await import(pathToFileURL(path.join(dir, rel, 'code-points.mjs')).href)).default;
  const category = new Map();
  const gcDir = path.join(dir, 'General_Category');
  const cased = new Set(['Lowercase_Letter', 'Uppercase_Letter', 'Titlecase_Letter']);
  // Only the seven basic categories; the others (Letter, Cased_Letter...) are unions.
  const basic = ['Lowercase_Letter', 'Uppercase_Letter', 'Titlecase_Letter', 'Modifier_Letter',
    'Other_Letter', 'Nonspacing_Mark', 'Spacing_Mark', 'Enclosing_Mark', 'Decimal_Number',
    'Letter_Number', 'Other_Number', 'Connector_Punctuation', 'Dash_Punctuation',
    'Open_Punctuation', 'Close_Punctuation', 'Initial_Punctuation', 'Final_Punctuation',
    'Other_Punctuation', 'Math_Symbol', 'Currency_Symbol', 'Modifier_Symbol', 'Other_Symbol',
    'Space_Separator', 'Line_Separator', 'Paragraph_Separator', 'Control', 'Format',
    'Surrogate', 'Private_Use', 'Unassigned'];
  for (const gc of basic) {
    if (!fs.existsSync(path.join(gcDir, gc))) continue;
    for (const cp of await load(path.join('General_Category', gc)))
      category.set(cp, cased.has(gc) ? 'L&' : gc);
  }
  const out = {};
  for (const prop of PROPERTIES) {
    const cps = [...(await load(path.join('Binary_Property', prop)))].sort((a, b) => a - b);
    const lines = [];
    let prevCat = null;
    for (const cp of cps) {
      const cat = category.get(cp);
      const last = lines[lines.length - 1];
      if (last && last[1] === cp - 1 && cat === prevCat) last[1] = cp;
      else lines.push([cp, cp]);
      prevCat = cat;
    }
    out[prop] = lines;
  }
  return out;
}

// Returns the UTF-8 bytes of code point [cp].
function encode(cp) {
  if (cp <= 0x7f) return [cp];
  if (cp <= 0x7ff) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp <= 0xffff) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f),
    0x80 | (cp & 0x3f)];
}

// Splits [first, last] where the length of the UTF-8 encoding changes.
function splitByLength(first, last) {
  const pieces = [];
  for (const limit of LENGTH_LIMITS) {
    if (first > limit) continue;
    if (last <= limit) {
      pieces.push([first, last]);
      return pieces;
    }
    pieces.push([first, limit]);
    first = limit + 1;
  }
  return pieces;
}

// Returns sequences of [min, max] byte ranges covering [lo]..[hi] (byte
// arrays of one length) the way the reference's generator does: the parts
// between the first and the last lead byte take any byte 0x00-0xFF.
function byteRanges(lo, hi) {
  const n = lo.length;
  if (n === 0) return [[]];
  const a = lo[0];
  const b = hi[0];
  if (a === b) return byteRanges(lo.slice(1), hi.slice(1)).map((rest) => [[a, a], ...rest]);
  if (n === 1) return [[[a, b]]];
  const any = Array(n - 1).fill([0x00, 0xff]);
  const seqs = byteRanges(lo, [a, ...Array(n - 1).fill(0xff)]);
  if (a + 1 !== b) seqs.push([[a + 1, b === 0xff ? 0xff : b - 1], ...any]);
  if (b !== 0xff) seqs.push(...byteRanges([b, ...Array(n - 1).fill(0x00)], hi));
  return seqs;
}

// Formats the byte range [lo]..[hi] as an re2c character class.
function cls([lo, hi]) {
  const h = (v) => '\\x' + v.toString(16).toUpperCase().padStart(2, '0');
  return lo === hi ? `[${h(lo)}]` : `[${h(lo)}-${h(hi)}]`;
}

const input = process.argv[2];
if (!input) {
  process.stderr.write('usage: gen_ident_tables.mjs DerivedCoreProperties.txt|PACKAGE_DIR\n');
  process.exit(2);
}
const isPackage = fs.statSync(input).isDirectory();
const lines = isPackage ? await linesFromPackage(input) : linesFromText(input);
// The Unicode version, from the package's name or the data file's first line.
const version = isPackage
  ? (JSON.parse(fs.readFileSync(path.join(input, 'package.json'), 'utf8')).name.match(/(\d+\.\d+\.\d+)$/) || ['', '?'])[1]
  : (fs.readFileSync(input, 'utf8').match(/DerivedCoreProperties-(\d+\.\d+\.\d+)\.txt/) || ['', '?'])[1];
let text = `// Generated by scripts/gen_ident_tables.mjs from Unicode ${version}\n` +
  '// DerivedCoreProperties; do not edit. See that script for why the byte\n' +
  '// ranges are wider than UTF-8 allows.\n/*!re2c\n';
for (const prop of PROPERTIES) {
  const seen = new Set();
  const alts = [];
  for (const [first, last] of lines[prop])
    for (const [lo, hi] of splitByLength(first, last))
      for (const seq of byteRanges(encode(lo), encode(hi))) {
        const alt = seq.map(cls).join(' ');
        if (!seen.has(alt)) {
          seen.add(alt);
          alts.push(alt);
        }
      }
  if (alts.length === 0) {
    process.stderr.write(`no ${prop} data in ${input}\n`);
    process.exit(1);
  }
  text += `${prop}\n` + alts.map((a, i) => `  ${i === 0 ? '=' : '|'} ${a}\n`).join('') + '  ;\n';
}
process.stdout.write(text + '*/\n');
