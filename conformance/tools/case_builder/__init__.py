"""The conformance case generator: writes `cases/*.jsonl` and `manifest.json` (entry point:
`conformance/tools/generate.py`).

Expected bytes never come from the codec under test. Round-trip lines are written here by
a small, independent implementation of the spec's canonical rules (schema key order, the
escaping of `JSON.stringify`; numbers are spelled by hand), and canonicalization cases pair
hand-written inputs with hand-written or rule-derived outputs. `make test` then checks the
Python codec against them, and (where Node is installed) checks the expected bytes once
more against `JSON.stringify` itself (`conformance/tools/reference_producer.mjs`).

Tags: structural tags (`def:`, `field:`, `absent:`, `enum:`, `anyof:`, `kind:`) are measured
by walking the expected message with the schema (`omnimessage.conformance.coverage`, which
reads the schema, not the codec); the others are written here.

Modules:

* `schema_facts`: the schema's definitions and rejection categories, fixed timestamps and ids
* `canonical_json`: the canonical writer (`json_string`, `canonical_json`, `msg`, `line`)
* `payload_values`: every payload with all its fields, `full` and `minimal` forms
* `hand_written_lines`: lines spelled as JSON text (`event_line`, `model_line`, `user_text_line`)
* `collector`: `CASES`, which places each case in a case file or the manifest; `rejection_case`
* one module per group: `roundtrip`, `verbatim`, `canonicalization`, `lenient`, `hostile`, and
  the rejection group by category family: `rejection_syntax`, `rejection_lexical`,
  `rejection_structure`, `rejection_values`
* `manifest`: runs every group in order and serialises `manifest.json` and the case files
"""
