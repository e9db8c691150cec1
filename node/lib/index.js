// hclvm for Node.js (docs/node.md): @cdktf/hcl2json's parse(), expressions
// compiled once, Terraform modules evaluated, over the hclvm addon.
'use strict';

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

module.exports = {parse, parseSync, compile, evaluateModule, Unknown, Expression: native.Expression,
  version: native.version};
