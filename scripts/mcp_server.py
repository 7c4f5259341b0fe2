"""make mcp: a local MCP server over stdio with every tool of every function (local_mcp/server.py).

.venv/bin/python scripts/mcp_server.py     # the bundled sample data; EVENTS_URI=s3://... etc. for your own
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# Logs and metrics go to stderr (stdout carries the protocol); traces have no X-Ray daemon to go to.
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "1")
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "BedrockAgentSearchLocal")

import anyio
from local_mcp.server import serve_stdio

if __name__ == "__main__":
    # Ctrl-C ends the server at once: the thread reading stdin cannot be interrupted, so a KeyboardInterrupt would wait
    # for the client's next line (the SQL workers notice their parent is gone and stop by themselves).
    signal.signal(signal.SIGINT, lambda *_: os._exit(130))
    anyio.run(serve_stdio)
