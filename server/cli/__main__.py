import sys

from cass.server.cli import main

sys.exit(main())
