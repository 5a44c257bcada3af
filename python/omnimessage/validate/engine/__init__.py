"""The rule engine: the streaming :class:`.validator.Validator`, the rules (:mod:`.rule`,
:mod:`.rules`, the checks in :mod:`.checks`), the state they read (:mod:`.state`, :mod:`.context`),
what a line the codec refused becomes (:mod:`.refusals`, :mod:`.recover`, :mod:`.torn`), the loop
that feeds it (:mod:`.feed`), its :class:`.finding.Finding`, and the rule catalogue as Markdown
(:mod:`.catalogue`, `python -m omnimessage.validate.engine.catalogue`)."""
