"""The AWS event-stream framing (`application/vnd.amazon.eventstream`) that streaming operations such as InvokeAgent
and InvokeHarness answer with, written as a server writes it, so a local endpoint can speak the wire format boto3
reads. botocore.eventstream holds the decoder; tests/integration/test_chat.py checks this encoder against it.

Reading, `tap_exceptions` keeps what botocore drops: an exception message whose type the operation's model does not
list is raised with neither its type nor its message, so a client reads the stream through an `ExceptionTap`.

A message is a prelude (total length, headers length, a CRC32 of those 8 bytes), the headers, the payload and a CRC32
of everything before it; integers are big-endian. Each header is its name's length (1 byte), the name, a value type
(7: a UTF-8 string), the value's length (2 bytes) and the value.

>>> message = event_message("chunk", {"bytes": "aGk="})
>>> len(message), message[-4:] == zlib.crc32(message[:-4]).to_bytes(4, "big")
(107, True)
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Iterator, Mapping
from typing import Any

from botocore.eventstream import EventStreamBuffer, EventStreamMessage, ParserError

_STRING = 7
# Total length and headers length, then the prelude's CRC32; the message's CRC32 closes it.
_PRELUDE_BYTES = 12
_CRC_BYTES = 4
# Where a client's answer keeps the tap its stream is read through.
TAP = "ExceptionTap"
# The messages botocore raises as an EventStreamError, and the headers that may name one, first found wins.
_FAILURES = ("exception", "error")
_NAMING_HEADERS = (":exception-type", ":event-type", ":error-code")


def event_message(event_type: str, payload: Mapping[str, Any]) -> bytes:
    """One event of a stream: `payload` is the JSON of the event's members (a blob member as base64 text)."""
    headers = {":event-type": event_type, ":message-type": "event", ":content-type": "application/json"}
    return message(headers, _json(payload))


def exception_message(exception_type: str, text: str) -> bytes:
    """The modelled exception a service sends in place of the next event (boto3 raises it while iterating)."""
    headers = {":exception-type": exception_type, ":message-type": "exception", ":content-type": "application/json"}
    return message(headers, _json({"message": text}))


def message(headers: Mapping[str, str], payload: bytes) -> bytes:
    encoded = b"".join(_header(name, value) for name, value in headers.items())
    prelude = struct.pack(">II", _PRELUDE_BYTES + len(encoded) + len(payload) + _CRC_BYTES, len(encoded))
    framed = prelude + struct.pack(">I", zlib.crc32(prelude)) + encoded + payload
    return framed + struct.pack(">I", zlib.crc32(framed))


def _header(name: str, value: str) -> bytes:
    name_bytes, value_bytes = name.encode(), value.encode()
    return struct.pack(">B", len(name_bytes)) + name_bytes + struct.pack(">BH", _STRING, len(value_bytes)) + value_bytes


def _json(payload: Mapping[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


class ExceptionTap:
    """An event stream's body, read as botocore reads it, keeping the first exception or error message it carries."""

    def __init__(self, body: Any) -> None:
        self.body = body
        self.exception: EventStreamMessage | None = None
        self._buffer: EventStreamBuffer | None = EventStreamBuffer()

    def stream(self) -> Iterator[bytes]:
        for chunk in self.body.stream():
            self._note(chunk)
            yield chunk

    def __getattr__(self, name: str) -> Any:  # what else botocore calls on the body (close)
        return getattr(self.body, name)

    def _note(self, chunk: bytes) -> None:
        if self._buffer is None:
            return
        self._buffer.add_data(chunk)
        try:
            self.exception = next((f for f in self._buffer if f.headers.get(":message-type") in _FAILURES), None)
        except ParserError:  # a garbled frame: botocore raises it, reading the same bytes
            self._buffer = None
        if self.exception is not None:
            self._buffer = None


def tap_exceptions(client: Any, operation: str) -> None:
    """Have `client` read each answer of `operation` through an `ExceptionTap`, which the answer holds under TAP."""
    service = client.meta.service_model.service_id.hyphenize()
    client.meta.events.register(f"before-parse.{service}.{operation}", _tap)


def _tap(response_dict: dict[str, Any], customized_response_dict: dict[str, Any], **_: Any) -> None:
    if response_dict["status_code"] < 300:  # an error's body is read whole, not streamed
        response_dict["body"] = customized_response_dict[TAP] = ExceptionTap(response_dict["body"])


def exception_of(message: EventStreamMessage) -> tuple[str, str]:
    """An exception message's type, from its headers, and the message its payload holds (or its :error-message).

    >>> buffer = EventStreamBuffer()
    >>> buffer.add_data(exception_message("throttlingException", "slow down"))
    >>> exception_of(next(buffer))
    ('throttlingException', 'slow down')
    """
    headers = message.headers
    name = next((str(headers[header]) for header in _NAMING_HEADERS if header in headers), "")
    return name, _payload_message(message.payload) or str(headers.get(":error-message", ""))


def _payload_message(payload: bytes) -> str:
    try:
        body = json.loads(payload.decode(errors="replace"))
    except (ValueError, RecursionError):
        return ""
    text = body.get("message", body.get("Message")) if isinstance(body, dict) else None
    return text if isinstance(text, str) else ""
