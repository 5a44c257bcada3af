"""`python -m omnimessage.conformance.mutants NAME`: one mutant as a testee."""

import sys

from . import main

sys.exit(main())
