// The addon through lib/index.js: parse (hcl2json's shape, and equality
// with @cdktf/hcl2json when it is installed), expressions, modules.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const hclvm = require('../lib/index.js');

const CONFIG = `
resource "aws_instance" "web" {
  ami   = "ami-1"
  count = 2
  tags  = { Name = "web" }
  ebs_block_device {
    size = 10
  }
}

locals {
  a = 1
}

output "o" {
  value = aws_instance.web[*].id
}
`;

test('parse gives hcl2json\'s document', async () => {
  const doc = await hclvm.parse('main.tf', CONFIG);
  assert.deepEqual(doc, {
    resource: {aws_instance: {web: [{ami: 'ami-1', count: 2, tags: {Name: 'web'}, ebs_block_device: [{size: 10}]}]}},
    locals: [{a: 1}],
    output: {o: [{value: '${aws_instance.web[*].id}'}]},
  });
  assert.deepEqual(hclvm.parseSync('main.tf', CONFIG), doc);
});

test('parse rejects as hcl2json does', async () => {
  await assert.rejects(hclvm.parse('bad.tf', 'a = \n'), {
    message: 'parse config: [bad.tf:1,5-2,1: Invalid expression; Expected the start of an expression, but found an invalid expression token.]',
  });
});

test('parse equals @cdktf/hcl2json', async (t) => {
  let hcl2json;
  try {
    hcl2json = require('@cdktf/hcl2json');
  } catch {
    t.skip('@cdktf/hcl2json is not installed');
    return;
  }
  assert.deepEqual(await hclvm.parse('main.tf', CONFIG), await hcl2json.parse('main.tf', CONFIG));
});

test('expressions', () => {
  assert.equal(hclvm.compile('x + 1').evaluate({x: 41}), 42);
  assert.equal(hclvm.compile('upper(name)').evaluate({name: 'web'}), 'WEB');
  assert.deepEqual(hclvm.compile('[for p in ports : p + 8000]').evaluate({ports: [80, 443]}), [8080, 8443]);
  assert.deepEqual(hclvm.compile('{b = 1, a = true}').evaluate(), {a: true, b: 1});
  assert.equal(hclvm.compile('0.1 + 0.2').evaluate(), 0.3);
  assert.equal(hclvm.compile('x * 2').evaluate({x: 2n ** 70n}), 2n ** 71n);
  assert.deepEqual(hclvm.compile('toset(["b", "a"])').evaluate(), new Set(['a', 'b']));
  assert.equal(hclvm.compile('length(x)').evaluate({x: new Set([1, 2])}), 2);
  assert.equal(hclvm.compile('x').evaluate({x: null}), null);
  const u = hclvm.compile('x + 1').evaluate({x: new hclvm.Unknown('number')});
  assert.ok(u instanceof hclvm.Unknown);
  assert.equal(u.type, 'number');
  assert.deepEqual(hclvm.compile('var.a + local.b["k"]').variables(), ['var.a', 'local.b["k"]']);
});

test('expression errors', () => {
  assert.throws(() => hclvm.compile('1 +'), /Missing expression/);
  assert.throws(() => hclvm.compile('x + 1').evaluate({x: 'a'}), (e) => {
    assert.match(e.message, /^Error: Invalid operand/);
    assert.equal(e.diagnostics[0].summary, 'Invalid operand');
    return true;
  });
});

test('evaluateModule', async () => {
  const dir = path.join(__dirname, '..', '..', 'python', 'tests', 'data', 'module');
  const r = await hclvm.evaluateModule(dir, {region: 'us-east-1'});
  assert.equal(r.outputs.name, 'web-us-east-1');
  assert.deepEqual(r.outputs.urls, ['http://web-us-east-1:80']);
  assert.equal(r.outputs.secret, 'hunter2');
  await assert.rejects(hclvm.evaluateModule(dir, {ports: 'x'}), /Invalid value for input variable/);
});

test('loadModule and re-evaluation', async () => {
  const dir = path.join(__dirname, '..', '..', 'python', 'tests', 'data', 'module');
  const m = await hclvm.loadModule(dir);
  assert.equal(m.path, dir);
  const first = await m.evaluate({region: 'us-east-1'});
  assert.equal(first.outputs.name, 'web-us-east-1');
  assert.deepEqual(Object.keys(first), ['variables', 'locals', 'outputs']);
  const again = await m.evaluate({region: 'eu-west-1'}, {previous: first});
  const fresh = await m.evaluate({region: 'eu-west-1'});
  assert.deepEqual(again, fresh);
  assert.equal(again.outputs.name, 'web-eu-west-1');
  const other = await hclvm.loadModule(dir);
  assert.throws(() => other.evaluate({}, {previous: first}), /another module/);
  assert.throws(() => m.evaluate({}, {previous: {outputs: {}}}), /previous must be/);
  await assert.rejects(m.evaluate({ports: 'x'}), /Invalid value for input variable/);
  await assert.rejects(hclvm.loadModule(path.join(dir, 'nope')), /Error/);
  assert.throws(() => new hclvm.Module(), /loadModule/);
});

test('parse of a large file goes through the thread pool', async () => {
  const big = Array.from({length: 3000}, (_, i) => `resource "a" "r${i}" {\n  x = ${i}\n}\n`).join('');
  assert.ok(big.length > 32 * 1024);
  const doc = await hclvm.parse('big.tf', big);
  assert.deepEqual(doc.resource.a.r2999, [{x: 2999}]);
  await assert.rejects(hclvm.parse('bad.tf', big + 'a = \n'), /^Error: parse config: \[bad\.tf:/);
});

test('convertFiles', async (t) => {
  const fs = require('fs');
  const os = require('os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hclvm-node-'));
  try {
    fs.writeFileSync(path.join(dir, 'a.tf'), 'resource "x" "a" {\n  n = 1\n}\nlocals {\n  l = [1]\n}\n');
    fs.writeFileSync(path.join(dir, 'b.tf'), 'resource "x" "b" {\n  n = 2\n}\n');
    fs.writeFileSync(path.join(dir, 'c.tf.json'),
      JSON.stringify({resource: {x: {a: [{m: 3}], c: [{n: 4}]}}, locals: [{j: 1}]}));
    fs.mkdirSync(path.join(dir, 'sub.tf'));
    const doc = await hclvm.convertFiles(dir);
    assert.deepEqual(doc.resource.x.b, [{n: 2}]);
    assert.deepEqual(doc.resource.x.a, [{n: 1}, {m: 3}]);
    assert.deepEqual(doc.resource.x.c, [{n: 4}]);
    assert.deepEqual(doc.locals, [{l: [1]}, {j: 1}]);
    let hcl2json;
    try {
      hcl2json = require('@cdktf/hcl2json');
    } catch {
      t.diagnostic('@cdktf/hcl2json is not installed: not compared');
      return;
    }
    assert.deepEqual(doc, await hcl2json.convertFiles(dir));
  } finally {
    fs.rmSync(dir, {recursive: true});
  }
  assert.deepEqual(await hclvm.convertFiles(path.join(__dirname)), {});
});
