"""Synthetic OmniMessage data, deterministic for a given size and seed: the one generator that the
tests, the benchmarks (Python and TypeScript) and the fuzzers share.

- :mod:`.sessions`: realistic sessions that follow every protocol rule: `trace_lines` (a stored
  trace: tool list, turns of user text, thinking with `fidelity`, tool calls, approvals, outputs
  with images, token usage) and `stream_lines` (the SDK stream of the same: `start` / `delta` /
  `stop` partials before each complete message, subagents forwarded with `origin`);
- :mod:`.corpora`: the benchmark corpora `trace`, `stream` and `small` (`make bench`, and the
  TypeScript bench through `python -m omnimessage_dev.synth`), with `ensure` writing them once;
- :mod:`.samples`: one canonical line per payload kind and field shape, from the schema's model,
  with expected bytes from an oracle independent of the codec;
- :mod:`.random_lines`: random messages, written every odd way and with defects, for the
  Python-against-TypeScript differential test and fuzzer.

`python -m omnimessage_dev.synth KIND OUT [--bytes N] [--seed S]` writes one of them to a file.
"""
