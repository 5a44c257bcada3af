"""The language-neutral conformance suite: manifest loading, the testee runner, coverage.

* :mod:`.suite`: the cases on disk (`conformance/manifest.json` and its fixture files).
* :mod:`.runner`: starts a testee (any command speaking `conformance/TESTEE-PROTOCOL.md`), sends every
  case, compares byte for byte, reports (text, JUnit, JSON), honours expected-failure lists.
* :mod:`.testee`: the Python binding as a testee (the deliberately broken ones, the mutants, are
  development tooling: `omnimessage_dev.mutants` in dev/, not in the wheel).
* :mod:`.coverage`: what the cases cover of the schema.
* :mod:`.pytest_plugin`: `pytest --omnimessage-impl CMD`.
"""

from .suite import PROTOCOL_VERSION, SUITE_VERSION, Case, Suite, SuiteError, load_suite, suite_dir

__all__ = ["PROTOCOL_VERSION", "SUITE_VERSION", "Case", "Suite", "SuiteError", "load_suite", "suite_dir"]
