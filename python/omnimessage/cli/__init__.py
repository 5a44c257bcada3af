"""The `omnimessage` command line: the entry point and the table of subcommands (:mod:`.main`), what
they share (:mod:`.usage`), and one module per subcommand, imported only when it is chosen:
:mod:`.canonicalize`, :mod:`.schema` (with `schema diff`), :mod:`.generate`, :mod:`.validate` (its
options in :mod:`.validate_options`), :mod:`.restore`; `conformance` is
:mod:`omnimessage.conformance.command`."""
