"""Canonical documents and what is done with them, whatever format they came from.

- :mod:`~interlingua.documents.validation`: ``validate``, ``load``, ``dump``, ``detect_document``;
  :mod:`~interlingua.documents.base`: the base classes of the generated models.
- :mod:`~interlingua.documents.view`: ``MessageView``, the policy surface of each part (with
  :mod:`~interlingua.documents.globs` and :mod:`~interlingua.documents.headers`, the URI globs
  and header names it matches); :mod:`~interlingua.documents.exchanges`: tool calls paired with
  their results; :mod:`~interlingua.documents.pipeline`: steps under the mutability tiers.
- :mod:`~interlingua.documents.migrate`: a document in another version of the format, with
  :mod:`~interlingua.documents.migration_runtime`, what the generated migrations call.
- :mod:`~interlingua.documents.model_ids` and :mod:`~interlingua.documents.pricing`: canonical
  model ids and cost from usage; :mod:`~interlingua.documents.synthetic`: valid synthetic
  conversations for benchmarks and property tests.
"""
