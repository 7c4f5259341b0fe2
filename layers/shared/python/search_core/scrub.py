"""Keep host details out of what the agent reads.

`scrub_paths` cleans plain paths out of error text. `HostPathNet` is the net under the SQL allowlists: it knows this
run's own paths and finds them in any form a query can compute from them — spaced out, with other separators,
reversed, hex or base64 — so that whatever slipped past the guard still does not leave.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable

_HOST_PATH = re.compile(
    r"(?<![\w.])/(?:tmp|var|opt|home|root|proc|etc|usr|work|dev|sys|lib|mnt|srv|run)(?:/[^\s'\"]*)?"
)
_NOT_ALNUM = re.compile(r"[\W_]+")
# Shorter skeletons (`tmp`, `opt`) occur in ordinary data; this run's folders are longer.
_MIN_SKELETON = 10


def scrub_paths(text: str) -> str:
    """Replace absolute host paths with a placeholder.

    >>> scrub_paths('Cannot open file "/tmp/search-core/events-1.csv": gone')
    'Cannot open file "<path>": gone'
    """
    return _HOST_PATH.sub("<path>", text)


class HostPathNet:
    """Finds any of `paths` (or a trailing part of two or more folders) in text, however it was encoded.

    >>> net = HostPathNet(["/tmp/search-core/events-worker"])
    >>> [net.catches(t) for t in ("tmp | search-core | events-worker", "rekrow-stneve/eroc-hcraes/pmt/",
    ...  "2F7365617263682D636F72652F6576656E74732D776F726B6572", "L3RtcC9zZWFyY2gtY29yZS9ldmVudHMtd29ya2Vy",
    ...  "イベント一覧")]
    [True, True, True, True, False]

    A path the request itself wrote is not caught: answering it tells nothing, and refusing it would confirm a guess.

    >>> net.catches("/tmp/search-core/events-worker", known="SELECT '/tmp/search-core/events-worker'")
    False
    """

    def __init__(self, paths: Iterable[str]) -> None:
        # Each trailing part of each path: its skeleton, and every form it is looked for in.
        self._tails: list[tuple[str, frozenset[str], frozenset[str]]] = []
        for path in paths:
            for tail in _tails(path):
                skeleton = _skeleton(tail)
                if len(skeleton) >= _MIN_SKELETON:
                    self._tails.append((skeleton, frozenset({skeleton, skeleton[::-1]}), frozenset(_encodings(tail))))

    def catches(self, text: str, known: str = "") -> bool:
        folded = text.casefold()
        skeleton, known_skeleton = _skeleton(folded), _skeleton(known)
        return any(
            any(form in skeleton for form in skeletons) or any(form in folded for form in encoded)
            for tail, skeletons, encoded in self._tails
            if tail not in known_skeleton
        )


def _tails(path: str) -> list[str]:
    """The path and each trailing part of it that still names two folders.

    >>> _tails("/tmp/search-core/events-worker")
    ['/tmp/search-core/events-worker', 'search-core/events-worker']
    """
    parts = [part for part in path.split("/") if part]
    return ["/" + "/".join(parts)] + ["/".join(parts[i:]) for i in range(1, len(parts) - 1)]


def _skeleton(text: str) -> str:
    return _NOT_ALNUM.sub("", text.casefold())


def _encodings(text: str) -> set[str]:
    """Hex and base64 (at each of the three alignments, standard and URL-safe) of `text`, case-folded."""
    raw = text.encode()
    forms = {raw.hex()}
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + raw).decode()
        # Drop the characters that depend on the bytes around the path, keep the stable middle.
        middle = encoded[(shift * 4 + 2) // 3 + 1 : -3]
        if len(middle) >= _MIN_SKELETON:
            forms.update({middle.casefold(), middle.replace("+", "-").replace("/", "_").casefold()})
    return forms
