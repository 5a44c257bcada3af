"""Untrusted bytes and text shown on one line: what a testee wrote, fit for a report or a terminal.

The helpers live in the one sanitiser, :mod:`omnimessage.text.sanitize`; this module keeps their old
import path.
"""

from __future__ import annotations

from omnimessage.text.sanitize import clip, escape_bytes, printable, sanitize, sanitize_lines

__all__ = ["clip", "escape_bytes", "printable", "sanitize", "sanitize_lines"]
