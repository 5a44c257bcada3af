"""omnimessage-codegen: turns the canonical OmniMessage JSON Schema into bindings and docs.

The schema is loaded into a small typed intermediate model (:mod:`.model`) by
:mod:`.loader`; each target (:mod:`.targets`, one small `Target` interface) runs its emitters,
one module per generated file, which render jinja2 templates from that model.
"""

from .loader import load_protocol, load_schema, load_testee_protocol, schema_path
from .model import Model
from .targets import TARGETS, generate

__all__ = ["TARGETS", "Model", "generate", "load_protocol", "load_schema", "load_testee_protocol", "schema_path"]
