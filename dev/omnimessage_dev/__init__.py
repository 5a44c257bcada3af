"""omnimessage-dev: development tooling of the repository, never shipped in the wheel.

- :mod:`omnimessage_dev.synth`: the one generator of synthetic messages (traces, streams,
  benchmark corpora, samples per payload kind, random lines for differential tests);
- :mod:`omnimessage_dev.validator_bench`: the validator's benchmark;
- :mod:`omnimessage_dev.mutants`: deliberately broken Python bindings, the conformance suite's
  mutation check (`omnimessage conformance --mutants`, python/tests/test_conformance_mutants.py).

Importable in the development virtualenv because the editable install (`make setup`:
`pip install -e '.[dev,bench]'`) puts `dev/` on the path, next to `python/` and `codegen/`
(hatch's `dev-mode-dirs` in pyproject.toml).
"""
