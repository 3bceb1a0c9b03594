"""The benchmarks of ``make bench`` (``python -m bench [--quick] [--only PARTS]``), not part of the installed
``dicehall`` package: one module per part with ``run(quick: bool) -> dict`` of measured figures (``__main__.py``'s
``MODULES`` table). Run from the repository root.
"""
