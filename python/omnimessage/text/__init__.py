"""Text for people: the one sanitiser every string from input passes before a terminal, log,
report or page (:mod:`.sanitize`), its Markdown and workflow-command forms for a CI run page
(:mod:`.ci`), and where two byte strings first differ (:mod:`.bytes_diff`)."""
