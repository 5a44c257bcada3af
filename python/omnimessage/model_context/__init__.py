"""What the model sees: a session's model context rebuilt from its trace (:mod:`.rebuild`), turn by
turn as the reference's resume replays it (:mod:`.replay`). `omnimessage.restore` is
:func:`.rebuild.restore`; `omnimessage restore` its command line (:mod:`omnimessage.cli.restore`)."""

from omnimessage.model_context.rebuild import ContextLine, Restored, RestoreError, restore

__all__ = ["ContextLine", "RestoreError", "Restored", "restore"]
