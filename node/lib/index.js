// hclvm for Node.js (docs/node.md): @cdktf/hcl2json's parse(), expressions
// compiled once, Terraform modules evaluated, over the hclvm addon.
'use strict';

const fs = require('fs');
const path = require('path');

// The addon: $HCLVM_NODE_ADDON, else node/build/hclvm.node (cmake), else
// node/build/Release/hclvm.node (cmake-js and node-gyp's place).
function loadAddon() {
  const candidates = [
    process.env.HCLVM_NODE_ADDON,
    path.join(__dirname, '..', 'build', 'hclvm.node'),
    path.join(__dirname, '..', 'build', 'Release', 'hclvm.node'),
  ].filter(Boolean);
  let last;
  for (const file of candidates) {
    try {
      return require(file);
    } catch (e) {
      last = e;
      if (e.code !== 'MODULE_NOT_FOUND') throw e;
    }
  }
  throw new Error(`hclvm: the addon is not built (tried ${candidates.join(', ')}): ${last && last.message}`);
}

const native = loadAddon();

/** A value not known yet, of the HCL type written `type` ("string", "any"). */
class Unknown {
  constructor(type = 'any') {
    this.type = type;
  }
}
native.init(Unknown);

// Inputs up to this many UTF-16 units are converted on the calling thread.
const INLINE_LIMIT = 32 * 1024;

/**
 * @cdktf/hcl2json's parse: the native-syntax file `contents` as its JSON
 * document (blocks as arrays of bodies under type and labels, expressions as
 * "${...}" strings). Rejects with "parse config: [...]" on syntax errors.
 */
function parse(filename, contents) {
  const text = String(contents);
  // A small file converts in about a millisecond at most: on this thread,
  // which costs less than the hop to the thread pool and back.
  if (text.length <= INLINE_LIMIT) {
    try {
      return Promise.resolve(native.parseSync(String(filename), text));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  return native.parse(String(filename), text);
}

/** parse() without the promise. */
function parseSync(filename, contents) {
  return native.parseSync(String(filename), String(contents));
}

// Merges the plain objects of [sources] into [target], in turn: objects
// merge key by key, arrays concatenate, anything else replaces; an object
// left empty by a merge is removed. Returns [target].
function merge(target, ...sources) {
  const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      if (isObject(value)) {
        if (!isObject(target[key])) target[key] = {};
        merge(target[key], value);
        if (Object.keys(target[key]).length === 0) delete target[key];
      } else if (Array.isArray(value)) {
        target[key] = Array.isArray(target[key]) ? [...target[key], ...value] : value;
      } else {
        target[key] = value;
      }
    }
  }
  return target;
}

/**
 * @cdktf/hcl2json's convertFiles: the *.tf files of `dir` (in directory
 * order) parsed as one file named hcl2json.tf, then the documents of its
 * *.tf.json files merged in. Resolves with {} when there are none.
 */
async function convertFiles(dir) {
  let tf = '';
  const json = [];
  for (const name of fs.readdirSync(dir)) {
    const file = path.resolve(dir, name);
    if (fs.lstatSync(file).isDirectory()) continue;
    if (name.endsWith('.tf')) tf += fs.readFileSync(file, 'utf-8') + '\n';
    else if (name.endsWith('.tf.json')) json.push(JSON.parse(fs.readFileSync(file, 'utf-8')));
  }
  if (tf === '' && json.length === 0) return {};
  return merge(await parse('hcl2json.tf', tf), ...json);
}

/** The expression `text`, compiled once: `.evaluate(vars)`, `.variables()`. */
function compile(text, filename = '<expr>') {
  return new native.Expression(String(text), String(filename));
}

/**
 * Loads and evaluates the Terraform module in `dir` with input variables
 * `vars`: resolves with `{variables, locals, outputs}`.
 */
function evaluateModule(dir, vars = {}) {
  return native.evaluateModule(String(dir), vars);
}

/**
 * Loads the Terraform module in `dir` once: resolves with a `Module` whose
 * `evaluate(vars, {previous})` evaluates it as many times as asked, each
 * resolving with `{variables, locals, outputs}`; given `previous` (what an
 * earlier `evaluate` of the same module resolved with), the result is the
 * same but the work of `previous` is reused wherever what it depended on
 * is unchanged.
 */
function loadModule(dir) {
  return native.loadModule(String(dir));
}

module.exports = {parse, parseSync, convertFiles, compile, evaluateModule, loadModule, Unknown,
  Expression: native.Expression, Module: native.Module,
  version: native.version};
