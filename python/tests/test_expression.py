"""hclvm.Expression, Context and the mapping of values."""

import math
from decimal import Decimal

import pytest

import hclvm


def ev(text, variables=None, **kw):
    return hclvm.Expression(text).evaluate(variables, **kw)


def test_scalars():
    assert ev("1 + 2") == 3
    assert ev("x + 1", {"x": 41}) == 42
    assert ev("upper(name)", {"name": "web"}) == "WEB"
    assert ev("true && x", {"x": False}) is False
    assert ev("null") is None
    assert ev("x", {"x": None}) is None


def test_numbers():
    assert ev("x * 2", {"x": 2**80}) == 2**81
    assert ev("0.1") == 0.1 and isinstance(ev("0.1"), float)
    third = ev("1 / 3")
    assert isinstance(third, Decimal) and str(third).startswith("0.33333333333333333333")
    assert ev("x + 0", {"x": Decimal("0.1000000000000000000001")}) == Decimal("0.1000000000000000000001")
    assert ev("x", {"x": 1.5}) == 1.5
    assert ev("x", {"x": float("inf")}) == math.inf
    with pytest.raises(ValueError):
        ev("x", {"x": float("nan")})


def test_collections():
    assert ev("[1, \"a\", true]") == [1, "a", True]
    assert ev("{b = 1, a = [2]}") == {"a": [2], "b": 1}
    assert ev("toset([\"b\", \"a\", \"a\"])") == frozenset({"a", "b"})
    assert ev("x", {"x": frozenset({1, 2})}) == frozenset({1, 2})
    assert ev("length(x)", {"x": {"a": 1, "b": 2}}) == 2
    assert ev("x[1]", {"x": (1, 2)}) == 2
    # A set of objects cannot be a frozenset of dicts: a list.
    assert ev("toset([{a = 1}])") == [{"a": 1}]


def test_unknown_and_marks():
    assert ev("x", {"x": hclvm.Unknown("string")}) == hclvm.Unknown("string")
    assert ev("x + 1", {"x": hclvm.Unknown("number")}) == hclvm.Unknown("number")
    r = ev("upper(x)", {"x": hclvm.Marked("a", {"sensitive"})})
    assert r == hclvm.Marked("A", frozenset({"sensitive"}))
    assert ev("upper(x)", {"x": hclvm.Marked("a", "sensitive")}, unmark=True) == "A"
    assert ev("[x]", {"x": hclvm.Marked(1, "m")}) == [hclvm.Marked(1, frozenset({"m"}))]


def test_template():
    e = hclvm.Expression("Hello, ${name}!", template=True)
    assert e.evaluate({"name": "World"}) == "Hello, World!"


def test_variables():
    e = hclvm.Expression('var.a + local.b["k"] + sum([for x in y : x])')
    vs = e.variables()
    assert [str(v) for v in vs] == ["var.a", 'local.b["k"]', "y"]
    assert vs[0].root == "var"
    assert vs[0].range.start.column == 1 and vs[0].range.end.column == 6


def test_python_functions():
    assert ev("twice(x)", {"x": 4}, functions={"twice": lambda v: v * 2}) == 8
    assert ev('join("-", f(2))', functions={"f": lambda n: ["a"] * n}) == "a-a"

    def boom(_):
        raise RuntimeError("no")

    with pytest.raises(hclvm.HCLError) as e:
        ev("boom(1)", functions={"boom": boom})
    d = e.value.diagnostics[0]
    assert d.summary == "Error in function call"
    assert d.detail == 'Call to function "boom" failed: RuntimeError: no.'
    assert "Error: Error in function call" in str(e.value)


def test_context_reused():
    ctx = hclvm.Context({"x": 1}, {"inc": lambda v: v + 1})
    e = hclvm.Expression("inc(x)")
    assert [e.evaluate(ctx) for _ in range(3)] == [2, 2, 2]


def test_errors():
    with pytest.raises(hclvm.HCLError) as e:
        hclvm.Expression("1 +")
    assert e.value.diagnostics[0].summary == "Missing expression"
    with pytest.raises(hclvm.HCLError) as e:
        ev("x + 1", {"x": "a"})
    d = e.value.diagnostics[0]
    assert d.summary == "Invalid operand"
    assert d.subject.filename == "<expr>"
    assert str(e.value).startswith("Error: Invalid operand")
    with pytest.raises(hclvm.HCLError) as e:
        ev("nope")
    assert e.value.diagnostics[0].summary == "Unknown variable"
    with pytest.raises(TypeError):
        ev("x", {"x": object()})
    with pytest.raises(TypeError):
        ev("x", {"x": {1: 2}})


def test_type_of():
    assert hclvm.type_of({"a": [1, "x"]}) == "object({a=tuple([number,string])})"
    assert hclvm.type_of(frozenset({"a"})) == "set(string)"
