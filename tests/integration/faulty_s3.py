"""moto's S3 server behind a loopback proxy that can inject faults, so S3 failures travel the real HTTP path."""

from __future__ import annotations

import http.client
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_ERRORS = {
    "access-denied": (403, "AccessDenied", "Access Denied"),
    "throttled": (503, "SlowDown", "Please reduce your request rate."),
    "server-error": (500, "InternalError", "We encountered an internal error."),
}


class FaultyS3:
    """Forwards to moto's server at `upstream` unless `fault` names one of: access-denied, throttled,
    server-error, truncate (half the body, full Content-Length) or down (connections refused)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.fault: str | None = None
        self.requests = 0
        self._server: ThreadingHTTPServer | None = None
        self.port = 0

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                proxy._handle(self)

            do_HEAD = do_GET

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()  # quick to stop

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        self.requests += 1
        if self.fault in _ERRORS:
            status, code, message = _ERRORS[self.fault]
            body = f"<Error><Code>{code}</Code><Message>{message}</Message></Error>".encode()
            handler.send_response(status)
            handler.send_header("Content-Type", "application/xml")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            if handler.command != "HEAD":
                handler.wfile.write(body)
            return
        status, headers, body = self._forward(handler)
        handler.send_response(status)
        for name, value in headers:
            if name.lower() not in ("transfer-encoding", "connection", "server", "date"):
                handler.send_header(name, value)
        handler.end_headers()
        if handler.command != "HEAD":
            handler.wfile.write(body[: len(body) // 2] if self.fault == "truncate" else body)
            if self.fault == "truncate":
                handler.close_connection = True

    def _forward(self, handler: BaseHTTPRequestHandler) -> tuple[int, list[tuple[str, str]], bytes]:
        connection = http.client.HTTPConnection(*self.upstream, timeout=10)
        try:
            headers = {k: v for k, v in handler.headers.items() if k.lower() != "host"}
            connection.request(handler.command, handler.path, headers=headers)
            response = connection.getresponse()
            return response.status, response.getheaders(), response.read()
        finally:
            connection.close()
