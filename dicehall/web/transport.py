"""The websocket transport: uvicorn's websockets-sansio protocol with two fixes for hostile input.

1. A frame the parser refuses (over ``ws_max_size`` → 1009, a protocol error → 1002, invalid UTF-8 → 1007) used to
   close the TCP connection at once while the rest of the client's frame was still unread; the kernel then answers
   with a reset and the client often sees 1006 instead of the close frame. Here the server sends the close frame,
   half-closes (FIN), reads and discards whatever the client still sends until it closes its side (or
   ``FAIL_DRAIN_SECONDS`` pass), and only then closes: the client always reads the close code.
2. A text frame that is not UTF-8 was logged as an ERROR with a traceback, once per frame: a client could flood the
   log. Here it is one short warning line per minute at most (``LogThrottle``), and the connection closes with 1007.

Passed to uvicorn as ``ws=DicehallWebSocketProtocol`` (``server.py``); written against uvicorn 0.54's
``WebSocketsSansIOProtocol`` (``tests/web/test_web_transport.py`` checks both behaviours on a real socket).
"""

from __future__ import annotations

import logging

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from dicehall.web.limits import LogThrottle

log = logging.getLogger("dicehall.web")

FAIL_DRAIN_SECONDS = 5.0
"""How long a failed connection is drained before the server closes it regardless."""

_CLIENT_ERRORS = LogThrottle(log)


class DicehallWebSocketProtocol(WebSocketsSansIOProtocol):
    failed = False

    def data_received(self, data: bytes) -> None:
        if self.failed:
            return  # draining after a failure: read and drop, so closing never resets the connection
        super().data_received(data)

    def handle_parser_exception(self) -> None:
        close = self.conn.close_sent
        code, reason = (close.code, close.reason) if close is not None else (1006, "")
        if code == 1009:
            _CLIENT_ERRORS.warn(
                "too_big", f"websocket frame over the size limit; closed with 1009 ({reason})"
            )
        self._fail(code, reason)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        try:
            text = data.decode()
        except UnicodeDecodeError:
            _CLIENT_ERRORS.warn("utf8", "websocket text frame that is not UTF-8; closed with 1007")
            self.conn.fail(1007, "text frame is not valid UTF-8")
            self._fail(1007, "text frame is not valid UTF-8")
            return
        self.queue.put_nowait({"type": "websocket.receive", "text": text})
        if not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def _fail(self, code: int, reason: str) -> None:
        """The close frame is queued in ``self.conn``: send it, half-close, and drain until the client closes."""
        self.failed = True
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        for chunk in self.conn.data_to_send():
            if chunk:
                self.transport.write(chunk)
            elif self.transport.can_write_eof():
                self.transport.write_eof()
        self.close_sent = True
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        if self.close_timer is None:
            self.close_timer = self.loop.call_later(FAIL_DRAIN_SECONDS, self.transport.close)
