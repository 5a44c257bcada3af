"""The one error type a decode raises, with the stable rejection categories."""

from __future__ import annotations

from omnimessage._generated.models import REJECTION_CATEGORIES

CATEGORIES: tuple[str, ...] = tuple(REJECTION_CATEGORIES)
"""Every rejection category, in the order the spec lists them."""

LEXICAL_CATEGORIES: frozenset[str] = frozenset(c for c, (lexical, _) in REJECTION_CATEGORIES.items() if lexical)
"""Categories JSON Schema cannot see (it only sees parsed values)."""


DETAIL_CHARS = 200
"""Details quote at most this many characters of a value: a 100 MB key makes a short message."""


def clip_repr(value: str) -> str:
    """`repr(value)`, cut to its first DETAIL_CHARS characters (`...` after the closing quote)."""
    return repr(value) if len(value) <= DETAIL_CHARS else repr(value[:DETAIL_CHARS]) + "..."


def escape_pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class DecodeError(ValueError):
    """A line was refused.

    Attributes:
        category: the stable rejection category (one of :data:`CATEGORIES`).
        pointer: JSON pointer (RFC 6901) to the offending value, `""` for the whole line.
        offset: byte offset in the line where the problem was found, when known.
        detail: what is wrong, for people.
        line: 1-based line number, set by readers (`iter_messages`, the CLI).
    """

    def __init__(
        self,
        category: str,
        detail: str,
        *,
        pointer: str = "",
        offset: int | None = None,
        line: int | None = None,
    ) -> None:
        if category not in REJECTION_CATEGORIES:
            raise AssertionError(f"unknown rejection category {category!r}")
        super().__init__(category, detail)
        self.category = category
        self.detail = detail
        self.pointer = pointer
        self.offset = offset
        self.line = line

    @property
    def lexical(self) -> bool:
        return REJECTION_CATEGORIES[self.category][0]

    @property
    def location(self) -> str:
        """`(at POINTER, byte N)`, the parts that are known, or `""`."""
        where = []
        if self.pointer:
            where.append(f"at {self.pointer}")
        if self.offset is not None:
            where.append(f"byte {self.offset}")
        return f"({', '.join(where)})" if where else ""

    def __str__(self) -> str:
        loc = self.location
        return f"{self.category}{' ' + loc if loc else ''}: {self.detail}"

    def __repr__(self) -> str:
        return (
            f"DecodeError(category={self.category!r}, pointer={self.pointer!r}, "
            f"offset={self.offset!r}, detail={self.detail!r})"
        )

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"category": self.category, "pointer": self.pointer, "detail": self.detail}
        if self.offset is not None:
            out["offset"] = self.offset
        if self.line is not None:
            out["line"] = self.line
        return out
