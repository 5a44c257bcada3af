"""What every subcommand of the command line shares: the exit codes, `UsageError`, the parser whose
output is harmless (`Parser`, which subcommand parsers inherit), "did you mean" for a misspelt option,
and `--pre-commit`."""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import TYPE_CHECKING, NoReturn

from omnimessage.text.sanitize import MAX_MESSAGE_CHARS, clip_text, sanitize, sanitize_lines

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def did_you_mean(words: list[str], options: list[str]) -> str:
    """`; did you mean --profile?` for the words that look like a misspelt option (empty: none do)."""
    longs = [o for o in options if o.startswith("--")]
    hints = []
    for w in words:
        name = w.split("=", 1)[0]
        close = difflib.get_close_matches(name, longs, n=1, cutoff=0.6) if name.startswith("--") else []
        if close:
            hints.append(f"{name}: did you mean {close[0]}?")
    return "; " + "; ".join(hints) if hints else ""


class Parser(argparse.ArgumentParser):
    """`argparse.ArgumentParser` whose output is harmless: its usage errors echo arguments
    (`invalid choice: ...`, `unrecognized arguments: ...`), which are made one clipped, sanitised
    line; everything else it prints goes through `sanitize_lines`. Subcommand parsers inherit it."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments: "):  # a short usage line, and what was probably meant
            message += did_you_mean(message.split(": ", 1)[1].split(), list(self._option_string_actions))
            sys.stderr.write(f"usage: {self.prog} [OPTIONS] ... ('{self.prog} --help' lists the options)\n")
        else:
            self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {sanitize(clip_text(message, MAX_MESSAGE_CHARS))}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            super()._print_message(sanitize_lines(message), file)


PRE_COMMIT_HELP = (
    "run as a pre-commit hook: the file names follow `--`, which must be given (end the hook's `args:` "
    "with `--`), so that a file named like an option (`--output=x.jsonl`) is read as a file"
)


def add_pre_commit_option(p: argparse.ArgumentParser) -> None:
    """`--pre-commit` (see :data:`PRE_COMMIT_HELP`); `main` refuses it without a `--`."""
    p.add_argument("--pre-commit", action="store_true", help=PRE_COMMIT_HELP)
