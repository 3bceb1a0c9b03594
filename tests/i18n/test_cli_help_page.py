"""Every ``--help`` page at 80 columns, in English and Russian: values named readably (no typer type placeholders
such as ``<bool>`` or ``<list[str]>``, arguments as ``GAME`` not ``{game}``), paragraphs filled to the width
(never broken where the source's line ended), examples on the main pages; ``dicehall --version``."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from dicehall import cli

PLACEHOLDER = re.compile(r"<(?:bool|str|int|float|path|list\[[^\]]*\])>|\{[a-z_]+\}")


def _paths() -> list[list[str]]:
    cli._register_games()
    root = typer.main.get_command(cli.app)
    out: list[list[str]] = []

    def walk(command: Any, path: list[str]) -> None:
        out.append(path)
        if hasattr(command, "list_commands"):
            ctx = command.context_class(command)
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), [*path, name])

    walk(root, [])
    return out


def _help(path: list[str], lang: str) -> str:
    result = CliRunner().invoke(cli.app, [*path, "--help", "--lang", lang], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def _prose_lines(page: str) -> list[list[str]]:
    """The description's paragraphs (outside the boxes and the examples), as lists of lines."""
    paragraphs: list[list[str]] = [[]]
    inside = False
    for line in page.splitlines():
        text = line.strip()
        if text.startswith("╭"):
            inside = True
        if not inside and text and not text.startswith(("Usage", "Использование")):
            paragraphs[-1].append(text)
        elif paragraphs[-1]:
            paragraphs.append([])
        if text.startswith("╰"):
            inside = False
            paragraphs.append([])  # the examples come after the boxes
            break
    return [p for p in paragraphs if p]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_help_page_names_values_readably_and_fills_its_paragraphs(lang: str) -> None:
    for path in _paths():
        page = _help(path, lang)
        where = f"dicehall {' '.join(path)} --help ({lang})"
        assert not PLACEHOLDER.search(page), f"{where}: {PLACEHOLDER.search(page)}\n{page}"
        assert all(len(line) <= 80 for line in page.splitlines()), where
        for paragraph in _prose_lines(page):
            for line in paragraph[:-1]:  # a line followed by more of its paragraph is filled to the width
                assert len(line) >= 50, f"{where}: paragraph broken after {line!r}\n{page}"


@pytest.mark.parametrize(
    ("path", "lang", "example"),
    [
        ([], "en", "dicehall play thousand            Dice 1000 against the expert bot"),
        ([], "ru", "dicehall --lang ru play thousand  то же по-русски"),
        (
            ["play", "thousand"],
            "en",
            "dicehall play thousand --real-dice         your own dice: type what fell",
        ),
        (["play", "clever"], "ru", "dicehall play clever --players me,bot:expert  против бота"),
        (["play", "wurf"], "en", "dicehall play wurf --players me,ann   two people at one keyboard"),
    ],
)
def test_main_pages_end_with_examples(path: list[str], lang: str, example: str) -> None:
    assert example in _help(path, lang)


def test_version() -> None:
    from importlib.metadata import version

    result = CliRunner().invoke(cli.app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"dicehall {version('dicehall')}\n"
