"""The schema as the runtime knows it: the canonical file shipped beside this package's modules
(`omnimessage.schema.json`, read by :mod:`.file`), its protocol versions (:mod:`.versions`), the
difference between two schemas and its CI verdict (:mod:`.diff`, :mod:`.diff_ci`), and the digest
of each version's generated Python bindings (:mod:`.binding_digests`)."""
