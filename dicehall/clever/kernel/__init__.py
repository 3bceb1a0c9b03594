"""A compiled Clever kernel (Numba): the rules on a flat integer array, for fast simulation and training.

``rules`` holds the jitted rules, ``layout`` the array layout and tables, ``bridge`` the conversions to and from
the engine's :class:`~dicehall.clever.state.CleverState`. The engine stays the reference; the kernel is checked
against it action by action (``tests/clever/test_kernel.py``).
"""
