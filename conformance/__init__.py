"""The interlingua conformance suite: golden cases any implementation, in any language, can run.

`python -m conformance run` drives the Python implementation in-process, or any program over
the newline-delimited JSON protocol of `conformance.protocol` (`--impl "node harness.js"`).
"""
