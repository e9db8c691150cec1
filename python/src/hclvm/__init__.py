"""hclvm: HCL2 (the configuration language of Terraform) for Python.

A thin layer over the hclvm C++ library: parse and convert configuration
files, compile expressions once and evaluate them often, evaluate whole
Terraform modules, format files. Parsing, evaluating, formatting and
converting release the GIL; everything here may be used from many
threads at once. See docs/python.md.

    >>> import hclvm
    >>> hclvm.loads('resource "aws_s3_bucket" "b" { bucket = "logs" }')
    {'resource': [{'aws_s3_bucket': {'b': {'bucket': 'logs'}}}]}
    >>> hclvm.Expression("x + 1").evaluate({"x": 41})
    42
"""

from __future__ import annotations

import json as _json
from decimal import Decimal
from typing import IO, Any, Dict, Iterable, List, Mapping, Optional, Union

# _types first: the extension looks its classes up when it is imported.
from ._types import Diagnostic, HCLError, Marked, Pos, Range, Traversal, Unknown
from . import _hclvm  # noqa: E402  (after _types)

__all__ = [
    "Context", "Diagnostic", "Evaluation", "Expression", "HCLError", "Marked", "Module", "Pos",
    "Range", "Traversal", "Unknown", "format", "load", "loads", "parse", "to_hcl", "to_json", "type_of",
]
__version__: str = _hclvm.__version__

_DEFAULT_NAME = "<input>"


def _number(text: str) -> Union[float, Decimal]:
    """A JSON fraction as a float when the float reads back as the same
    decimal, else as a Decimal (no digit is lost)."""
    f = float(text)
    d = Decimal(text)
    return f if Decimal(repr(f)) == d else d


def _text(data: Union[str, bytes]) -> str:
    return data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data


_TYPE_KEYWORDS = ("bool", "number", "string")


def _python_hcl2(doc: Dict[str, Any], items: List[Any], with_meta: bool) -> Dict[str, Any]:
    """The hcl2json body ``doc`` laid out as python-hcl2 v7 lays bodies
    out, in the source order of ``items`` (the body's skeleton): each block
    one item of the list under its type, its labels nesting dicts."""
    out: Dict[str, Any] = {}
    taken: Dict[Any, int] = {}
    for item in items:
        if item[0] == "a":
            if item[1] in doc:
                # python-hcl2 writes a bare type keyword as itself, not "${string}".
                out[item[1]] = item[2] if item[2] in _TYPE_KEYWORDS else doc[item[1]]
            continue
        _, kind, labels, first, last, body = item
        node: Any = doc.get(kind)
        for label in labels:
            node = node.get(label) if isinstance(node, dict) else None
        key = (kind, tuple(labels))
        i = taken.get(key, 0)
        taken[key] = i + 1
        # An attribute of the block's name replaced it (as in hcl2json).
        if not isinstance(node, list) or i >= len(node) or not isinstance(node[i], dict):
            continue
        value = _python_hcl2(node[i], body, with_meta)
        if with_meta:
            value["__start_line__"] = first
            value["__end_line__"] = last
        for label in reversed(labels):
            value = {label: value}
        blocks = out.setdefault(kind, [])
        if isinstance(blocks, list):
            blocks.append(value)
    return out


def loads(text: Union[str, bytes], *, filename: Optional[str] = None, syntax: str = "native",
          shape: str = "python-hcl2", with_meta: bool = False,
          preserve_order: bool = False) -> Dict[str, Any]:
    """Reads a configuration file into plain dicts and lists.

    ``syntax="native"`` (the default) reads HCL's native syntax in one of
    three shapes:

    - ``"python-hcl2"`` (the default): python-hcl2 v7's layout (each
      block one item of a list under its type, labels nesting dicts, the
      body a dict; keys in source order; ``with_meta=True`` adds
      ``__start_line__`` and ``__end_line__`` to block bodies) with
      hclvm's values: docs/python.md lists every difference;
    - ``"hcl2json"``: the document of @cdktf/hcl2json and Go's hcl2json
      (every block a list of bodies under its type and labels; keys
      sorted, or in source order with ``preserve_order=True``);
    - ``"jsonsyntax"``: the HCL JSON syntax (a .tf.json file).

    Expressions that are not literals are ``"${...}"`` strings of their
    source text. ``syntax="json"`` reads a file of the JSON syntax as it is.

    Numbers: ints of any size; a fraction is a float when a float holds
    it exactly as written, else a ``decimal.Decimal``. Raises
    ``HCLError`` on syntax errors (and when hcl2json's rules refuse the
    file: blocks of one type with different label counts)."""
    text = _text(text)
    name = filename or _DEFAULT_NAME
    if syntax == "json":
        return _json.loads(text, parse_float=_number)
    if syntax != "native":
        raise ValueError('syntax must be "native" or "json"')
    if shape == "python-hcl2":
        doc, items = _hclvm.hcl2json_with_skeleton(text, name)
        return _python_hcl2(_json.loads(doc, parse_float=_number), items, with_meta)
    doc = _hclvm.to_json(text, name, shape, preserve_order, False)
    return _json.loads(doc, parse_float=_number)


def load(fp: IO[Any], **kwargs: Any) -> Dict[str, Any]:
    """``loads`` of what ``fp`` reads (text or bytes), named as the file is."""
    kwargs.setdefault("filename", getattr(fp, "name", None))
    return loads(fp.read(), **kwargs)


def parse(text: Union[str, bytes], *, filename: Optional[str] = None, kind: str = "config") -> Dict[str, Any]:
    """The syntax tree of a configuration file (``kind="config"``), an
    expression (``"expr"``) or a template (``"template"``) as dicts with
    ranges: the JSON of ``hclvm ast --format json`` (docs/ast-json.md).
    Raises ``HCLError`` on syntax errors."""
    if kind not in ("config", "expr", "template"):
        raise ValueError('kind must be "config", "expr" or "template"')
    return _json.loads(_hclvm.ast_json(_text(text), filename or _DEFAULT_NAME, kind))


def to_json(text: Union[str, bytes], *, filename: Optional[str] = None, shape: str = "jsonsyntax",
            preserve_order: bool = False, comments: bool = False) -> str:
    """A native-syntax file as a JSON document: the HCL JSON syntax
    (``shape="jsonsyntax"``, what ``hclvm json`` writes; ``comments``
    keeps comments as ``"//"`` properties) or @cdktf/hcl2json's
    (``shape="hcl2json"``). Raises ``HCLError`` on syntax errors."""
    return _hclvm.to_json(_text(text), filename or _DEFAULT_NAME, shape, preserve_order, comments)


def to_hcl(text: Union[str, bytes], *, filename: Optional[str] = None, layout: Optional[str] = None) -> str:
    """A file of the HCL JSON syntax in the native syntax, laid out as
    hclfmt lays it out (what ``hclvm json --to hcl`` writes). The JSON
    syntax cannot tell blocks from objects: ``layout`` names the schema,
    ``"terraform"``, ``"packer"`` or ``"none"`` (every property an
    attribute); by default the one the file name implies (*.tf.json:
    Terraform, *.pkr.json: Packer). Raises ``HCLError`` on errors."""
    return _hclvm.to_hcl(_text(text), filename or "<input>.json", layout or "")


_TERRAFORM_SUFFIXES = (".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl")


def format(text: Union[str, bytes], *, filename: Optional[str] = None, style: Optional[str] = None) -> str:
    """The file formatted as ``hclfmt`` (``style="hcl"``) or ``terraform
    fmt`` (``style="terraform"``) formats it, byte for byte; the style
    defaults to the one the file name implies (Terraform for *.tf). Raises
    ``HCLError`` on syntax errors."""
    name = filename or _DEFAULT_NAME
    if style is None:
        style = "terraform" if name.endswith(_TERRAFORM_SUFFIXES) else "hcl"
    return _hclvm.format(_text(text), name, style)


def type_of(value: Any) -> str:
    """The HCL type the Python value converts to, as a type expression."""
    return _hclvm.type_of(value)


class Context(_hclvm.Context):
    """Variables (a dict of Python values) and functions (a dict of
    callables, added to Terraform's function library) converted once, for
    evaluating many times: ``expr.evaluate(ctx)``."""


class Expression(_hclvm.Expression):
    """An expression (or, with ``template=True``, a template) parsed and
    compiled once; ``evaluate`` runs it as often as needed, from any
    thread. Raises ``HCLError`` on syntax errors.

    ``evaluate(variables=None, functions=None, *, unmark=False)``:
    ``variables`` is a dict of Python values or a ``Context``;
    ``functions`` a dict of Python callables, called with the arguments as
    Python values. The functions of Terraform's library are there, except
    those that read files. Raises ``HCLError`` when evaluation fails."""

    def __init__(self, text: str, filename: str = "<expr>", template: bool = False) -> None:
        super().__init__(text, filename, template)

    def variables(self) -> List[Traversal]:
        """The variables the expression reads, in source order
        (``var.x``, ``local.tags["a"]``); not those of ``for``."""
        return [Traversal(t, root, rng) for t, root, rng in self._variables()]

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"


class Evaluation:
    """The values a module evaluation gave: ``variables``, ``locals`` and
    ``outputs`` of the root module, ``instances`` of resources and module
    calls, ``diagnostics``; ``eval(expr)`` evaluates more as ``terraform
    console`` does. Values keep their marks (sensitive outputs are
    ``Marked``)."""

    def __init__(self, native: Any) -> None:
        self._native = native

    @property
    def variables(self) -> Dict[str, Any]:
        return self._native._variables(False)

    @property
    def locals(self) -> Dict[str, Any]:
        return self._native._locals(False)

    @property
    def outputs(self) -> Dict[str, Any]:
        return self._native._outputs(False)

    @property
    def instances(self) -> Dict[str, Any]:
        """Every resource, data source and module instance by address, with
        its arguments (modules: outputs); unknown where not known."""
        return {address: value for address, _kind, value in self._native._instances(False)}

    @property
    def diagnostics(self) -> List[Diagnostic]:
        return self._native.diagnostics

    @property
    def stopped(self) -> bool:
        """Whether evaluation stopped before walking the module."""
        return self._native.stopped

    def eval(self, expr: str, *, unmark: bool = False) -> Any:
        """The value of ``expr`` in the root module's scope."""
        return self._native.eval(expr, unmark=unmark)

    def to_json(self) -> str:
        """The result as the JSON document of ``hclvm eval DIR``."""
        return self._native.to_json()


class Module:
    """A Terraform (or Packer) module directory, loaded and compiled once;
    ``evaluate`` may run many times, from many threads. Raises
    ``HCLError`` when the module does not load."""

    def __init__(self, path: str) -> None:
        self._native = _hclvm.Module(str(path))

    @property
    def path(self) -> str:
        return self._native.path

    @property
    def language(self) -> str:
        return self._native.language

    @property
    def diagnostics(self) -> List[Diagnostic]:
        """The warnings of loading."""
        return self._native.diagnostics

    @property
    def variable_names(self) -> List[str]:
        return self._native.variable_names

    @property
    def local_names(self) -> List[str]:
        return self._native.local_names

    @property
    def output_names(self) -> List[str]:
        return self._native.output_names

    @property
    def resource_addresses(self) -> List[str]:
        return self._native.resource_addresses

    def evaluate(self, variables: Optional[Mapping[str, Any]] = None, *, var_files: Iterable[str] = (),
                 workspace: str = "default", env: Optional[Mapping[str, str]] = None,
                 resources: Optional[Mapping[str, Any]] = None, check: bool = True,
                 previous: Optional["Evaluation"] = None) -> Evaluation:
        """Evaluates the module as Terraform does: input variables from
        ``terraform.tfvars`` and ``*.auto.tfvars`` of the directory, then
        ``var_files``, then ``env`` (``TF_VAR_`` names; the process's
        environment is not read), then ``variables`` (Python values);
        ``resources`` gives values of resource instances by address
        (others stay ``Unknown``). Raises ``HCLError`` on errors unless
        ``check=False``. With ``previous`` (an earlier evaluation of this
        module), the result is the same but the work of ``previous`` is
        reused wherever what it depended on is unchanged (re-evaluation,
        docs/config.md); ``ValueError`` when ``previous`` is another
        module's."""
        return Evaluation(self._native.evaluate(dict(variables) if variables is not None else None,
                                                [str(f) for f in var_files], workspace,
                                                dict(env) if env is not None else None,
                                                dict(resources) if resources is not None else None, check,
                                                previous._native if previous is not None else None))
