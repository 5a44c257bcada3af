"""What the validator writes: the :class:`.report.Report` of a run, the formats (:mod:`.reporter`,
:mod:`.output`, :mod:`.html`), the tables by group (:mod:`.summary`), a CI run page's summary
(:mod:`.ci_summary`), the progress of a big run (:mod:`.progress_log`) and `--max-findings`
(:mod:`.limit`)."""
