"""The front end's files: hashed assets sent compressed (the variant the request accepts, made at build time) and
kept a year; the page itself revalidated each time; the security headers on all of them."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dicehall.web.app import STATIC_DIR, create_app
from dicehall.web.assets import IMMUTABLE, accepted_encodings
from dicehall.web.security import CSP

SCRIPT = b"export const greeting = 'hello';\n" * 200


def raw(c: TestClient, path: str, accept: str | None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and the body as sent (not decoded)."""
    headers = {"accept-encoding": accept} if accept is not None else {"accept-encoding": ""}
    with c.stream("GET", path, headers=headers) as r:
        return r.status_code, dict(r.headers), b"".join(r.iter_raw())


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_text('<html><script src="/assets/app-Ab12Cd34.js"></script></html>')
    (site / "assets" / "app-Ab12Cd34.js").write_bytes(SCRIPT)
    (site / "assets" / "app-Ab12Cd34.js.gz").write_bytes(gzip.compress(SCRIPT))
    (site / "assets" / "app-Ab12Cd34.js.br").write_bytes(b"(brotli bytes, as the build wrote them)")
    (site / "assets" / "logo-Ef56Gh78.png").write_bytes(b"\x89PNG not compressed")
    return site


def test_an_asset_goes_out_in_the_encoding_the_request_accepts_and_is_kept_a_year(db_url, site: Path):
    with TestClient(create_app(db_url, bot_delay=0, static_dir=site)) as c:
        _, plain_headers, plain = raw(c, "/assets/app-Ab12Cd34.js", None)
        assert plain == SCRIPT and "content-encoding" not in plain_headers, (
            "no Accept-Encoding: the plain bytes"
        )
        assert plain_headers["cache-control"] == IMMUTABLE

        status, headers, body = raw(c, "/assets/app-Ab12Cd34.js", "gzip, deflate")
        assert status == 200 and headers["content-encoding"] == "gzip"
        assert gzip.decompress(body) == SCRIPT and len(body) < len(SCRIPT) / 10
        assert headers["content-type"] == plain_headers["content-type"], "typed as the script, not as gzip"
        assert headers["cache-control"] == "public, max-age=31536000, immutable"
        assert headers["vary"] == "Accept-Encoding" == plain_headers["vary"]
        assert headers["content-security-policy"] == CSP and headers["x-content-type-options"] == "nosniff"

        status, headers, body = raw(c, "/assets/app-Ab12Cd34.js", "gzip, deflate, br, zstd")
        assert headers["content-encoding"] == "br"
        assert body == (site / "assets" / "app-Ab12Cd34.js.br").read_bytes()
        assert raw(c, "/assets/app-Ab12Cd34.js", "br;q=0, gzip;q=0.8")[1]["content-encoding"] == "gzip"
        assert raw(c, "/assets/app-Ab12Cd34.js", "identity")[2] == SCRIPT

        # a file not compressed at build: itself, kept a year as well; a missing one is not cached
        status, headers, body = raw(c, "/assets/logo-Ef56Gh78.png", "gzip, br")
        assert body == b"\x89PNG not compressed" and "content-encoding" not in headers
        assert headers["cache-control"] == IMMUTABLE
        status, headers, _ = raw(c, "/assets/gone-00000000.js", "gzip")
        assert status == 404 and "immutable" not in headers.get("cache-control", "")

        # revalidation of the compressed variant: its own ETag
        etag = raw(c, "/assets/app-Ab12Cd34.js", "gzip")[1]["etag"]
        assert etag != plain_headers["etag"]
        again = c.get("/assets/app-Ab12Cd34.js", headers={"accept-encoding": "gzip", "if-none-match": etag})
        assert again.status_code == 304


def test_the_page_itself_is_revalidated_every_time(db_url, site: Path):
    with TestClient(create_app(db_url, bot_delay=0, static_dir=site)) as c:
        for path in ("/", "/table/abc123", "/index.html"):
            r = c.get(path)
            assert r.status_code == 200 and "/assets/app-Ab12Cd34.js" in r.text, path
            assert r.headers["cache-control"] == "no-cache", path
            assert r.headers["content-security-policy"] == CSP, path


def test_accept_encoding_is_read_with_its_weights():
    assert accepted_encodings("gzip, deflate, br, zstd") == {"gzip", "deflate", "br", "zstd"}
    assert accepted_encodings("br;q=0, gzip;q=0.5") == {"gzip"}
    assert accepted_encodings("GZIP ; q=1.0") == {"gzip"}
    assert accepted_encodings("*") >= {"gzip", "br"}
    assert accepted_encodings("gzip;q=zero") == set()
    assert accepted_encodings("") == set()


def test_the_build_writes_a_compressed_copy_of_every_script_and_stylesheet():
    assets = STATIC_DIR / "assets"
    if not (STATIC_DIR / "index.html").is_file():
        pytest.skip("the front end is not built (make web)")
    index = (STATIC_DIR / "index.html").read_text()
    named = re.findall(r'/assets/([\w.-]+\.(?:js|css))"', index)
    assert named, "index.html names its script and stylesheet"
    files = [p for p in assets.iterdir() if p.suffix in (".js", ".css")]
    assert {p.name for p in files} >= set(named)
    for path in files:
        assert re.search(r"-[\w-]{8}\.(js|css)$", path.name), f"{path.name} is not named by a hash"
        assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == path.read_bytes()
        assert path.with_name(path.name + ".br").stat().st_size < path.stat().st_size
