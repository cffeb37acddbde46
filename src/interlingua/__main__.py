import sys

from interlingua.cli.commands import main

sys.exit(main())
