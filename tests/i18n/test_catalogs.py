"""The compiled message tables (dicehall.i18n.catalogs): the same translations as the ``.po`` files, used only while
their ``.po`` is unchanged."""

from __future__ import annotations

import gettext
import io
import shutil
from pathlib import Path

import pytest

from dicehall.i18n import LANGUAGES, catalogs, load_catalog


@pytest.fixture
def locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped ``.po`` files, with no table compiled yet."""
    for lang in LANGUAGES:
        shutil.copy(catalogs._LOCALES / f"{lang}.po", tmp_path)
    monkeypatch.setattr(catalogs, "_LOCALES", tmp_path)
    return tmp_path


def _refuse_compiling(lang: str, po: bytes) -> bytes:
    raise AssertionError(f"{lang}: compiled from its .po although a table was built")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_built_table_is_read_as_it_is_and_says_what_the_po_says(
    lang: str, locales: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from_po = gettext.GNUTranslations(io.BytesIO(catalogs.compile_po(lang, catalogs.po_bytes(lang))))
    (built,) = catalogs.build((lang,))
    assert built.parent == locales
    monkeypatch.setattr(catalogs, "compile_po", _refuse_compiling)
    table = catalogs.load(lang)
    assert table._catalog == from_po._catalog  # type: ignore[attr-defined]
    assert table.ngettext("unit.points", "unit.points", 5) == from_po.ngettext(
        "unit.points", "unit.points", 5
    )


def test_a_table_of_an_older_po_is_not_used_and_the_next_build_replaces_it(locales: Path) -> None:
    (old,) = catalogs.build(("en",))
    po = locales / "en.po"
    po.write_text(po.read_text() + '\nmsgid "test.fresh"\nmsgstr "only in the new text"\n')
    assert catalogs.load("en").gettext("test.fresh") == "only in the new text"
    (new,) = catalogs.build(("en",))
    assert new != old and new.exists() and not old.exists()
    assert catalogs.load("en").gettext("test.fresh") == "only in the new text"


def test_the_plural_ids_are_the_catalogues_own() -> None:
    english = catalogs.load("en")
    assert catalogs.plural_ids(english) == {m.id[0] for m in load_catalog("en") if isinstance(m.id, tuple)}
    assert "unit.points" in catalogs.plural_ids(english)


def test_the_english_templates_of_messages_are_the_po_files() -> None:
    from dicehall.i18n import message

    singular, plural = message._templates()
    catalog = load_catalog("en")
    assert plural == {m.id[0]: (m.string[0], m.string[1]) for m in catalog if isinstance(m.id, tuple)}
    assert singular == {m.id: m.string for m in catalog if isinstance(m.id, str) and m.id}
