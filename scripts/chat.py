"""make chat: talk to the deployed agent; every tool call is printed as it happens, each answer's tokens after it
(tooling/chat.py).

.venv/bin/python scripts/chat.py [--stack NAME] [--question TEXT]
"""

from __future__ import annotations

import readline  # noqa: F401 (once imported, input() edits the line and keeps a history at the prompt)
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.chat import main

if __name__ == "__main__":
    sys.exit(main())
