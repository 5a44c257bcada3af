"""omnimessage: the reference toolkit for the OmniMessage protocol.

Decode a line strictly, get typed msgspec structs, encode them back to the very same bytes:

    >>> import omnimessage as om
    >>> msg = om.decode(b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg",'
    ...                 b'"payload":{"type":"text","role":"user","text":"hi"}}')
    >>> msg.payload.text
    'hi'
    >>> om.encode(msg) == om.canonicalize(om.encode(msg))
    True
"""

from omnimessage._generated import builders as _builders
from omnimessage._generated import models as _models
from omnimessage._generated.builders import *  # noqa: F403
from omnimessage._generated.models import *  # noqa: F403
from omnimessage._version import __version__ as __version__
from omnimessage.aggregate import Aggregator
from omnimessage.builders import event, model, now, raw_json, with_origin
from omnimessage.codec.api import OpaqueMessage, canonicalize, decode, encode
from omnimessage.codec.errors import CATEGORIES, LEXICAL_CATEGORIES, DecodeError
from omnimessage.guards import is_complete_model, is_event, is_model, is_partial, is_session_meta
from omnimessage.model_context.rebuild import ContextLine, Restored, RestoreError, restore
from omnimessage.reader import Line, iter_messages
from omnimessage.runtime import Codec, IncompatibleSchemaError

__all__ = [
    "Aggregator",
    "Codec",
    "IncompatibleSchemaError",
    "Line",
    "iter_messages",
    "ContextLine",
    "Restored",
    "RestoreError",
    "restore",
    "is_complete_model",
    "is_event",
    "is_model",
    "is_partial",
    "is_session_meta",
    "CATEGORIES",
    "LEXICAL_CATEGORIES",
    "DecodeError",
    "OpaqueMessage",
    "canonicalize",
    "decode",
    "encode",
    "event",
    "model",
    "now",
    "raw_json",
    "with_origin",
]
__all__ += _models.__all__  # the forms type checkers follow
__all__ += _builders.__all__
