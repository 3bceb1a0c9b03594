"""The README's Python examples run as doctests, and its two commands stay first."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```python")[1:]]
    assert blocks, "the README has no Python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {i}", str(README), 0))
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 0


def test_readme_starts_with_the_two_commands() -> None:
    first_block = README.read_text(encoding="utf-8").split("```")[1]
    assert first_block.split()[:1] == ["make"] and "make run" in first_block and "make test" in first_block
