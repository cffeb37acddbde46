"""The ``interlingua`` command line.

- :mod:`~interlingua.cli.commands`: the parser, every command and ``main`` (the console script
  and ``python -m interlingua``);
- :mod:`~interlingua.cli.migrate`: ``interlingua migrate``.

The gateway's and the store's commands live with them (``interlingua.gateway.cli``,
``interlingua.store.cli``) and register here.
"""
