"""Targets `python-testee`, `typescript-testee`, `rust-testee` and `go-testee`: the testee protocol's lines as types.

Each renders the model of conformance/testee-protocol.schema.json (:mod:`...testee_loader`) into one
file of its language: every request, answer and handshake as a type (an object a struct, interface
or TypedDict; a `oneOf` a union; a named scalar an alias), which the runner and the bundled
testees use instead of types written by hand. `make generate` writes them beside the code that uses
them; `make check-generated` fails when one is stale. They are the project's own (undocumented:
`generate --help` does not list them).
"""

from __future__ import annotations

from ...model import TESTEE_PROTOCOL
from .. import Target
from . import go, python, rust, typescript

TARGETS = (
    Target("python-testee", "the testee protocol's lines as TypedDicts", (python.render,), writes=(python.FILE,),
           schema=TESTEE_PROTOCOL, documented=False),
    Target("typescript-testee", "the testee protocol's lines as TypeScript types", (typescript.render,),
           writes=(typescript.FILE,), schema=TESTEE_PROTOCOL, documented=False),
    Target("rust-testee", "the testee protocol's flat objects as Rust structs with readers", (rust.render,),
           writes=(rust.FILE,), schema=TESTEE_PROTOCOL, documented=False),
    Target("go-testee", "the testee protocol's lines as Go structs", (go.render,), writes=(go.FILE,),
           schema=TESTEE_PROTOCOL, documented=False),
)

__all__ = ["TARGETS"]
