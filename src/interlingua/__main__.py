import sys

from interlingua.cli import main

sys.exit(main())
