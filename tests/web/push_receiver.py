"""A Web Push service for the tests, on a loopback port: it takes what an application server posts (RFC 8030),
checks its VAPID authorization (RFC 8292: an ES256 JWT for this service's origin, signed by the key in ``k``) and
decrypts the message with the subscription's keys made here (RFC 8291, ``aes128gcm`` of RFC 8188) — written from
the RFCs with `cryptography`'s primitives, not with the library the server sends with.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


@dataclass
class Browser:
    """One subscribed browser: its ECDH key pair and auth secret (what ``pushManager.subscribe`` makes)."""

    name: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def public(self) -> bytes:
        return self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 / RFC 8188: the header (salt, record size, the server's key), one record, its padding."""
        salt, rs, idlen = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
        server_public = body[21 : 21 + idlen]
        records = body[21 + idlen :]
        assert idlen == 65 and len(records) <= rs, "one record, keyed by the server's public key"
        shared = self.key.exchange(
            ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), server_public)
        )
        ikm = hkdf(self.auth, shared, b"WebPush: info\x00" + self.public + server_public, 32)
        cek = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        plain = AESGCM(cek).decrypt(nonce, records, None)
        plain = plain.rstrip(b"\x00")
        assert plain.endswith(b"\x02"), "the last record ends with its delimiter"
        return plain[:-1]


@dataclass
class Delivery:
    browser: str
    ttl: int
    message: dict[str, Any]
    vapid_sub: str
    vapid_key: str


class PushService:
    """``with PushService() as service:``; ``service.endpoint(browser)`` is what the browser gives the server."""

    def __init__(self) -> None:
        self.browsers: dict[str, Browser] = {}
        self.gone: set[str] = set()
        self.deliveries: list[Delivery] = []
        self.refusals: list[str] = []
        self._cond = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status, why = service._take(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"/message/{len(service.deliveries)}")
                self.send_header("Content-Length", str(len(why)))
                self.end_headers()
                self.wfile.write(why.encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> PushService:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscription(self, name: str, lang: str = "en") -> dict[str, Any]:
        """A new browser's ``PushSubscription.toJSON()`` plus its language."""
        browser = self.browsers[name] = Browser(name)
        return {
            "endpoint": f"{self.origin}/push/{name}",
            "keys": {"p256dh": b64url(browser.public), "auth": b64url(browser.auth)},
            "lang": lang,
        }

    def wait(self, count: int, timeout: float = 20.0) -> list[Delivery]:
        """The deliveries, once there are ``count`` (awaited on a condition: each delivery notifies it)."""
        with self._cond:
            assert self._cond.wait_for(lambda: len(self.deliveries) + len(self.refusals) >= count, timeout), (
                f"{len(self.deliveries)} deliveries, refused: {self.refusals}"
            )
            assert not self.refusals, f"the service refused: {self.refusals}"
            return list(self.deliveries)

    def _take(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, str]:
        name = path.rsplit("/", 1)[-1]
        try:
            if name not in self.browsers:
                return 404, "no such subscription"
            if name in self.gone:
                return 410, "unsubscribed"
            sub, key = self._check_vapid(headers)
            ttl = int(headers.get("ttl", "-1"))
            assert ttl >= 0, "RFC 8030: TTL is required"
            assert headers.get("content-encoding") == "aes128gcm", headers.get("content-encoding")
            message = json.loads(self.browsers[name].decrypt(body))
        except (AssertionError, ValueError, InvalidSignature) as exc:
            with self._cond:
                self.refusals.append(f"{type(exc).__name__}: {exc}")
                self._cond.notify_all()
            return 400, str(exc)
        with self._cond:
            self.deliveries.append(Delivery(name, ttl, message, sub, key))
            self._cond.notify_all()
        return 201, ""

    def _check_vapid(self, headers: dict[str, str]) -> tuple[str, str]:
        """RFC 8292: ``Authorization: vapid t=JWT, k=KEY``; the JWT is ES256, for this origin, not expired, at
        most 24 hours ahead, with a contact. Returns the contact (``sub``) and the key."""
        scheme, _, params = headers.get("authorization", "").partition(" ")
        assert scheme.lower() == "vapid", f"not a VAPID authorization: {scheme!r}"
        fields = dict(p.strip().split("=", 1) for p in params.split(","))
        token, key = fields["t"], unb64url(fields["k"])
        head, claims, signature = token.split(".")
        assert json.loads(unb64url(head))["alg"] == "ES256"
        raw = unb64url(signature)
        assert len(raw) == 64, "ES256 signatures are r||s"
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
        public.verify(
            encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
            f"{head}.{claims}".encode(),
            ec.ECDSA(hashes.SHA256()),
        )
        body = json.loads(unb64url(claims))
        assert body["aud"] == self.origin, f"aud {body['aud']!r} is not {self.origin!r}"
        assert time.time() < body["exp"] <= time.time() + 24 * 3600 + 60, "exp within 24 hours"
        assert str(body.get("sub", "")).startswith(("mailto:", "https:")), "a contact"
        return str(body["sub"]), fields["k"]
