"""Format adapters: compiled from schemas/mappings/, run by the layout and document code here.

``interlingua.generated.adapters.ADAPTERS`` maps each format name to its compiled
:class:`~interlingua.conversion.adapters.runtime.Adapter`; :mod:`interlingua.conversion.converter`
is the way in.
"""
