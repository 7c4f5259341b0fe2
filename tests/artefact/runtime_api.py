"""A local Lambda Runtime API: what the runtime client (awslambdaric) polls for events and posts results to.

Only the calls a Python runtime makes: `GET /runtime/invocation/next` (blocks until an event is queued),
`POST /runtime/invocation/{id}/response` and `/error`, and `POST /runtime/init/error`; under SnapStart
(AWS_LAMBDA_INITIALIZATION_TYPE=snap-start), `GET /runtime/restore/next`, which the runtime calls once its
before-snapshot hooks have run and which returns when the environment is restored (here: when the test says so),
and `POST /runtime/restore/error`. The bytes the client posts are
kept as they are: they are exactly what Lambda would return to Bedrock.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

_PREFIX = "/2018-06-01/runtime"


@dataclass
class Outcome:
    kind: str  # "response" or "error"
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class RuntimeApi:
    """Serves one function process on 127.0.0.1; `invoke` sends an event and waits for what the process posts."""

    def __init__(self, function_arn: str, timeout_seconds: float = 30.0) -> None:
        self.function_arn = function_arn
        self.timeout_seconds = timeout_seconds
        self.init_error: bytes | None = None
        self.snapshot_taken = threading.Event()
        self._restored = threading.Event()
        # The function's process, once started: a process that has exited fails the call at once.
        self.process: subprocess.Popen[bytes] | None = None
        self.log: Path | None = None
        self._events: queue.Queue[tuple[str, bytes, str | None]] = queue.Queue()
        self._outcomes: dict[str, Outcome] = {}
        self._arrived = threading.Condition()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def address(self) -> str:
        host, port = self._server.server_address[:2]
        return f"{host}:{port}"

    def invoke(self, event: Any, client_context: dict[str, Any] | None = None) -> Outcome:
        """Send `event` (with a client context, as an AgentCore Gateway sends one) and wait for the result."""
        request_id = str(uuid.uuid4())
        context = None if client_context is None else json.dumps(client_context)
        self._events.put((request_id, json.dumps(event, ensure_ascii=False).encode(), context))
        deadline = time.monotonic() + self.timeout_seconds
        with self._arrived:
            while request_id not in self._outcomes:
                if self.init_error is not None:
                    raise RuntimeError(f"the function failed to start: {self.init_error.decode(errors='replace')}")
                if self.process is not None and self.process.poll() is not None:
                    output = self.log.read_text(errors="replace")[-3000:] if self.log else ""
                    raise RuntimeError(f"the function's process exited ({self.process.returncode}): {output}")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no result for {request_id} within {self.timeout_seconds} s")
                self._arrived.wait(timeout=0.2)
            return self._outcomes.pop(request_id)

    def restore(self) -> None:
        """Let the runtime go on from its snapshot, once it has asked to (its after-restore hooks run next)."""
        if not self.snapshot_taken.wait(timeout=self.timeout_seconds):
            raise TimeoutError("the runtime never asked to be restored")
        self._restored.set()

    def close(self) -> None:
        self._restored.set()
        self._server.shutdown()
        self._server.server_close()

    def _record(self, request_id: str | None, outcome: Outcome) -> None:
        with self._arrived:
            if request_id is None:
                self.init_error = outcome.body
            else:
                self._outcomes[request_id] = outcome
            self._arrived.notify_all()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if self.path == f"{_PREFIX}/restore/next":
                    api.snapshot_taken.set()
                    api._restored.wait()
                    self._answer(200)
                    return
                if self.path != f"{_PREFIX}/invocation/next":
                    self._answer(404)
                    return
                request_id, body, client_context = api._events.get()
                self.send_response(200)
                self.send_header("Lambda-Runtime-Aws-Request-Id", request_id)
                if client_context is not None:
                    self.send_header("Lambda-Runtime-Client-Context", client_context)
                self.send_header("Lambda-Runtime-Deadline-Ms", str(int((time.time() + api.timeout_seconds) * 1000)))
                self.send_header("Lambda-Runtime-Invoked-Function-Arn", api.function_arn)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                parts = self.path.removeprefix(_PREFIX).strip("/").split("/")
                if parts in (["init", "error"], ["restore", "error"]):
                    api._record(None, Outcome("error", body))
                elif len(parts) == 3 and parts[0] == "invocation" and parts[2] in ("response", "error"):
                    api._record(parts[1], Outcome(parts[2], body))
                else:
                    self._answer(404)
                    return
                self._answer(202)

            def _answer(self, status: int) -> None:
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler
