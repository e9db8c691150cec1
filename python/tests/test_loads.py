"""hclvm.loads, load, parse, to_json and format."""

import io
from decimal import Decimal

import pytest

import hclvm

CONFIG = '''
variable "region" {}

resource "aws_instance" "web" {
  ami   = "ami-1"
  count = 2
  tags  = { Name = "web" }

  ebs_block_device {
    size = 10
  }
  ebs_block_device {
    size = 20
  }
  lifecycle {
    ignore_changes = [tags]
  }
}

resource "aws_instance" "db" {}

locals {
  a = 1
}

output "o" {
  value = aws_instance.web[*].id
}
'''


def test_loads_python_hcl2_shape():
    # python-hcl2 v7.3.1's document for CONFIG, as it gives it.
    assert hclvm.loads(CONFIG) == {
        "variable": [{"region": {}}],
        "resource": [
            {"aws_instance": {"web": {
                "ami": "ami-1",
                "count": 2,
                "tags": {"Name": "web"},
                "ebs_block_device": [{"size": 10}, {"size": 20}],
                "lifecycle": [{"ignore_changes": ["${tags}"]}],
            }}},
            {"aws_instance": {"db": {}}},
        ],
        "locals": [{"a": 1}],
        "output": [{"o": {"value": "${aws_instance.web[*].id}"}}],
    }
    assert list(hclvm.loads(CONFIG)) == ["variable", "resource", "locals", "output"]


def test_loads_with_meta():
    web = hclvm.loads(CONFIG, with_meta=True)["resource"][0]["aws_instance"]["web"]
    assert (web["__start_line__"], web["__end_line__"]) == (4, 18)
    assert web["ebs_block_device"][1] == {"size": 20, "__start_line__": 12, "__end_line__": 14}


def test_loads_type_keywords():
    d = hclvm.loads('variable "v" {\n  type = string\n}\nx = "${string}"\ny = list(string)\n')
    assert d == {"variable": [{"v": {"type": "string"}}], "x": "${string}", "y": "${list(string)}"}


def test_loads_same_as_python_hcl2():
    hcl2 = pytest.importorskip("hcl2")
    text = CONFIG + 'variable "t" {\n  type = number\n}\n'
    assert hclvm.loads(text) == hcl2.loads(text)
    assert hclvm.loads(text, with_meta=True) == hcl2.loads(text, with_meta=True)


def test_loads_hcl2json_shape():
    assert hclvm.loads(CONFIG, shape="hcl2json") == {
        "variable": {"region": [{}]},
        "resource": {
            "aws_instance": {
                "web": [{
                    "ami": "ami-1",
                    "count": 2,
                    "tags": {"Name": "web"},
                    "ebs_block_device": [{"size": 10}, {"size": 20}],
                    "lifecycle": [{"ignore_changes": ["${tags}"]}],
                }],
                "db": [{}],
            }
        },
        "locals": [{"a": 1}],
        "output": {"o": [{"value": "${aws_instance.web[*].id}"}]},
    }


def test_loads_key_order():
    assert list(hclvm.loads("b = 1\na = 2\n")) == ["b", "a"]
    assert list(hclvm.loads("b = 1\na = 2\n", shape="hcl2json")) == ["a", "b"]
    assert list(hclvm.loads("b = 1\na = 2\n", shape="hcl2json", preserve_order=True)) == ["b", "a"]


def test_loads_numbers():
    d = hclvm.loads("a = 12345678901234567890123\nb = 0.1\nc = 3.14159265358979323846264338\nd = 1e3\n")
    assert d["a"] == 12345678901234567890123 and isinstance(d["a"], int)
    assert d["b"] == 0.1 and isinstance(d["b"], float)
    assert d["c"] == Decimal("3.14159265358979323846264338")
    assert d["d"] == 1000


def test_loads_strings_and_templates():
    d = hclvm.loads('a = "\\u00e9"\nb = "x-${var.y}"\nc = <<EOT\nhello\nEOT\nd = !true\n')
    assert d == {"a": "é", "b": "x-${var.y}", "c": "hello\n", "d": False}


def test_loads_bytes_and_load():
    assert hclvm.loads(b"a = 1\n") == {"a": 1}
    fp = io.StringIO("a = 1\n")
    assert hclvm.load(fp) == {"a": 1}


def test_loads_jsonsyntax_shape():
    d = hclvm.loads('resource "a" "b" {\n  x = var.y\n}\n', shape="jsonsyntax")
    assert d == {"resource": {"a": {"b": {"x": "${var.y}"}}}}


def test_loads_json_syntax_input():
    assert hclvm.loads('{"a": {"b": 0.5}}', syntax="json") == {"a": {"b": 0.5}}


def test_loads_syntax_error():
    with pytest.raises(hclvm.HCLError) as e:
        hclvm.loads("a = \n", filename="bad.tf")
    err = e.value
    assert err.diagnostics[0].severity == "error"
    assert err.diagnostics[0].summary == "Invalid expression"
    assert err.diagnostics[0].subject.filename == "bad.tf"
    assert err.diagnostics[0].subject.start.line == 1
    assert str(err).startswith("Error: Invalid expression")
    assert "on bad.tf line 1" in str(err)


def test_parse_tree_with_ranges():
    t = hclvm.parse("a = 1\n", filename="x.hcl")
    assert t["kind"] == "Body"
    attr = t["attributes"][0]
    assert attr["name"] == "a"
    assert attr["expr"]["range"]["start"] == {"line": 1, "column": 5, "byte": 4}


def test_parse_expr():
    t = hclvm.parse("a + 1", kind="expr")
    assert t["kind"] == "Binary"


def test_to_json():
    assert hclvm.to_json("a = 1\n") == '{\n  "a": 1\n}\n'


def test_format():
    assert hclvm.format("a=1\nbb = [ 1,2 ]\n") == "a  = 1\nbb = [1, 2]\n"
    tf = 'resource "a" "b" {\n  x = "${var.y}"\n}\n'
    assert hclvm.format(tf, filename="main.tf") == 'resource "a" "b" {\n  x = var.y\n}\n'
    assert hclvm.format(tf, filename="main.hcl") == tf
    with pytest.raises(hclvm.HCLError):
        hclvm.format("a = {\n")


def test_to_hcl():
    doc = '{"resource": {"a": {"b": {"x": "${var.y}", "n": 1}}}}'
    assert hclvm.to_hcl(doc, filename="main.tf.json") == 'resource "a" "b" {\n  x = var.y\n  n = 1\n}\n'
    assert hclvm.to_hcl('{"a": {"b": 1}}', layout="none") == "a = {\n  b = 1\n}\n"
    with pytest.raises(hclvm.HCLError):
        hclvm.to_hcl('{"a": ', filename="bad.json")
