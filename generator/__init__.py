"""The interlingua generator: schemas/ in, generated/ (and generated docs) out.

Pipeline: load -> lint -> bundle -> render. ``python -m generator`` writes the outputs;
``python -m generator --check`` regenerates into a temporary directory and fails on drift.
"""
