"""A fast path for search: the rules over integer arrays, compiled with numba.

``layout`` compiles a pack into opcodes and fixes the array layouts,
``kernel`` interprets them (tested against ``engine.tcg.state``, the reference)
and holds the search loops,
``encode`` converts observations and states into arrays.
"""
