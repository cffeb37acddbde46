import sys

from interlingua.cli.commands import main

# Guarded: a service worker process (`service.work`) runs the parent's main module again, as
# multiprocessing does, and must not start the command line there.
if __name__ == "__main__":
    sys.exit(main())
