import sys

from omnimessage.cli.main import main

sys.exit(main())
