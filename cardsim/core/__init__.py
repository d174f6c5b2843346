"""What every game shares: rules objects, the keyed RNG, cards as bitmasks, the record, ``GameSpec``, numba twins,
the ``mc`` policy's parameters (``search.py``).

A regular package (this file), so that ``pip install .`` ships it and the API reference finds it.
"""
