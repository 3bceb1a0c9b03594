"""Every ``>>>`` example in the package's docstrings runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import dicehall


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(dicehall.__path__, "dicehall."):
        if ".web" in info.name or info.name.endswith("__main__"):
            continue
        spec = importlib.util.find_spec(info.name)
        origin = spec.origin if spec else None
        if origin and origin.endswith(".py"):
            with open(origin, encoding="utf-8") as fh:
                if ">>>" in fh.read():
                    names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules_with_examples())
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
