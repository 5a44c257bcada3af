"""`python -m omnimessage_dev.mutants NAME`: one mutant as a testee."""

import sys

from . import main

sys.exit(main())
