"""Files without surprises: opening an input that may be a FIFO, a device or a link
(:mod:`.safe_open`), replacing a file atomically (:mod:`.atomic`), and write errors that name
their destination (:mod:`.write_errors`)."""
