"""The producer corpus' builder (entry point: `conformance/producers/build.py`).

Modules:

* `js_json`: `stringify`, a small equivalent of JavaScript's JSON.stringify, and `record`
* `payloads`: payload builders in the key order of the reference's builders
* `session`: `Clock` and `Session`, one sequence of emissions viewed as stream and trace files
* `material`: what the sessions share (prompt, tools, signature, `new_session`)
* one module per topic: `turn_sessions`, `compaction_sessions`, `subagent_sessions`,
  `crash_and_split_sessions`, `release_sessions` (old and newer releases), `sse_capture`
* `corpus`: every file by path; `index_entries`: `index.json`
"""
