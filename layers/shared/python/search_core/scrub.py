"""Keep host details out of what the agent reads."""

from __future__ import annotations

import re

_HOST_PATH = re.compile(
    r"(?<![\w.])/(?:tmp|var|opt|home|root|proc|etc|usr|work|dev|sys|lib|mnt|srv|run)(?:/[^\s'\"]*)?"
)


def scrub_paths(text: str) -> str:
    """Replace absolute host paths with a placeholder.

    >>> scrub_paths('Cannot open file "/tmp/search-core/events-1.csv": gone')
    'Cannot open file "<path>": gone'
    """
    return _HOST_PATH.sub("<path>", text)
