"""The plain Python types of hclvm: diagnostics and their ranges, the
error HCL's failures raise, unknown and marked values, and traversals.
The extension module builds and recognises these classes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, FrozenSet, List, Optional


@dataclass(frozen=True)
class Pos:
    """A position in a file: 1-based line, 1-based column (in grapheme
    clusters, as HCL counts them) and 0-based byte offset."""

    line: int
    column: int
    byte: int


@dataclass(frozen=True)
class Range:
    """A range [start, end) of a file."""

    filename: str
    start: Pos
    end: Pos

    def __str__(self) -> str:
        s, e = self.start, self.end
        if s.line == e.line:
            return f"{self.filename}:{s.line},{s.column}-{e.column}"
        return f"{self.filename}:{s.line},{s.column}-{e.line},{e.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic: severity ("error" or "warning"), summary, detail,
    the range it is about (subject) and a wider one for context."""

    severity: str
    summary: str
    detail: str
    subject: Optional[Range] = None
    context: Optional[Range] = None


class HCLError(Exception):
    """HCL's errors: syntax errors, evaluation errors, module errors.

    ``str(error)`` is the text the hclvm CLI prints (summary, snippet with
    the subject underlined, detail); ``error.diagnostics`` lists every
    diagnostic, warnings included."""

    def __init__(self, message: str, diagnostics: Optional[List[Diagnostic]] = None):
        super().__init__(message)
        self.message = message
        self.diagnostics: List[Diagnostic] = list(diagnostics or [])


@dataclass(frozen=True)
class Unknown:
    """A value not known yet, of the HCL type written ``type``
    ("string", "list(number)", "any" for any type)."""

    type: str = "any"


@dataclass(frozen=True)
class Marked:
    """A value carrying marks (``"sensitive"``, ...). Operations on marked
    values give results marked with the union of their operands' marks."""

    value: Any
    marks: FrozenSet[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if isinstance(self.marks, str):
            object.__setattr__(self, "marks", frozenset([self.marks]))
        else:
            object.__setattr__(self, "marks", frozenset(self.marks))


@dataclass(frozen=True)
class Traversal:
    """A variable an expression reads: its text (``var.x[0]``), the root
    name (``var``) and its range."""

    text: str
    root: str
    range: Range

    def __str__(self) -> str:
        return self.text
