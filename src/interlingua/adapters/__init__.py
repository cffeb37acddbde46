"""Format adapters: compiled from schemas/mappings/, run by the layout and document code here.

``interlingua.generated.adapters.ADAPTERS`` maps each format name to its compiled
:class:`~interlingua.adapters.runtime.Adapter`; :mod:`interlingua.converter` is the way in.
"""
