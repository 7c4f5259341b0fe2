"""How a decision's texts are stored: one zstd frame each, holding the normalised text that searches read, then
主文 and 事実及び理由 as written.

The searched text differs little from the texts as written (NFKC, case, numerals), and zstd's window spans a whole
decision, so one frame holds both for about the price of one: on the benchmark corpus 0.20 of their UTF-8 size,
where a zlib stream per text takes 0.38. zstd also decompresses about seven times faster than zlib, and decompressing is
most of checking a candidate. DuckDB stores the frames uncompressed, so fetching a few decisions reads only their
rows (its own compression works a block at a time).

>>> unpacked(packed("損害", "主文", None))
StoredTexts(searched='損害', main_text='主文', facts_and_reasons=None)
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass

if sys.version_info >= (3, 14):
    from compression import zstd
else:
    from backports import zstd

# Measured on 400 decisions of the benchmark corpus: level 9 stores 0.196 of the UTF-8 at ~100 MB/s, level 3 0.209
# at ~360 MB/s, level 19 0.185 at ~6 MB/s; every level decompresses at ~1.8 GB/s.
_LEVEL = 9
_LENGTHS = struct.Struct("<qqq")  # UTF-8 bytes of each text; -1 for an absent one


@dataclass(frozen=True)
class StoredTexts:
    searched: str
    main_text: str | None
    facts_and_reasons: str | None


def packed(searched: str, main_text: str | None, facts_and_reasons: str | None) -> bytes:
    parts = [text.encode() if text is not None else None for text in (searched, main_text, facts_and_reasons)]
    lengths = _LENGTHS.pack(*(len(part) if part is not None else -1 for part in parts))
    return zstd.compress(lengths + b"".join(part or b"" for part in parts), _LEVEL)


def searched_utf8(frame: bytes) -> bytes:
    """The searched text alone, undecoded, for checking a candidate: decompression stops where the texts as written
    begin (measured 1.5x faster than the whole frame and a decode).

    >>> searched_utf8(packed("損害", "主文", "理由")).decode()
    '損害'
    """
    decompressor = zstd.ZstdDecompressor()
    length = _LENGTHS.unpack(_take(decompressor, frame, _LENGTHS.size))[0]
    return _take(decompressor, b"", length)


def _take(decompressor: zstd.ZstdDecompressor, frame: bytes, size: int) -> bytes:
    """The next `size` bytes of decompressed output (a call may return fewer than it is allowed)."""
    output, given = b"", frame
    while len(output) < size and not decompressor.eof:
        more = decompressor.decompress(given, size - len(output))
        if not more:
            break
        output, given = output + more, b""
    return output


def unpacked(frame: bytes) -> StoredTexts:
    data = zstd.decompress(frame)
    texts: list[str | None] = []
    start = _LENGTHS.size
    for length in _LENGTHS.unpack_from(data):
        texts.append(data[start : start + length].decode() if length >= 0 else None)
        start += max(length, 0)
    searched, main_text, facts_and_reasons = texts
    return StoredTexts(searched or "", main_text, facts_and_reasons)
