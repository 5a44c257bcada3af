"""The `omnimessage` command line: the entry point and the small commands (:mod:`.main`), and the
argument parsing of each bigger subcommand (:mod:`.validate` with :mod:`.validate_options`,
:mod:`.restore`, :mod:`.schema_diff`; `conformance` is :mod:`omnimessage.conformance.command`)."""
