"""Local tooling shared by the tests and the scripts (neither imports the other): running the functions as Lambda
does, the catalogue's events, S3 publishing, the template generator, the attack corpus, process probes.

Importing it puts the layer's python/ folder on sys.path, as Lambda does.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYER = ROOT / "layers" / "shared" / "python"
DATA_DIR = ROOT / "data"

if str(LAYER) not in sys.path:
    sys.path.insert(0, str(LAYER))
# Locally, a dataset with no URI is the repository's sample (the layer never looks for it beside itself).
os.environ.setdefault("SAMPLE_DATA_DIR", str(DATA_DIR))
