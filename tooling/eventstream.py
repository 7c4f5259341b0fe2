"""The AWS event-stream framing (`application/vnd.amazon.eventstream`) that streaming operations such as InvokeAgent
and InvokeHarness answer with, written as a server writes it, so a local endpoint can speak the wire format boto3
reads. botocore.eventstream holds the decoder; tests/integration/test_chat.py checks this encoder against it.

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
from collections.abc import Mapping
from typing import Any

_STRING = 7
# Total length and headers length, then the prelude's CRC32; the message's CRC32 closes it.
_PRELUDE_BYTES = 12
_CRC_BYTES = 4


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
