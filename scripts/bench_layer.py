"""make bench, deployment part: the shared layer's size, and what its bytecode saves on every cold start.

Builds the layer exactly as `sam build` does (layers/shared/Makefile: aarch64 wheels for Python 3.13) and writes
build/bench/layer.json: unzipped and zipped size and the largest packages. Then, if this machine has Python 3.13,
it builds the same layer for x86_64 twice, with and without bytecode, and times a fresh interpreter importing the
events function and creating the S3 client from it with bytecode writing off: /opt is read-only on Lambda, so a
layer without .pyc files is compiled again on every cold start.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.local import ROOT

BUILD = ROOT / "build" / "bench"
LAYER_MAKE = ["make", "-s", "-C", str(ROOT / "layers" / "shared")]
IMPORT_PROBE = """
import time
t0 = time.perf_counter()
import app, boto3
boto3.client("s3", region_name="ap-northeast-1")
print((time.perf_counter() - t0) * 1000)
"""


def build_layer(artifacts: Path, *options: str) -> Path:
    shutil.rmtree(artifacts, ignore_errors=True)
    artifacts.mkdir(parents=True)
    command = [*LAYER_MAKE, "build-SharedLayer", f"ARTIFACTS_DIR={artifacts}", f"PYTHON={sys.executable}", *options]
    subprocess.run(command, check=True)
    return artifacts


def tree_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def size(artifacts: Path) -> dict[str, object]:
    archive = Path(shutil.make_archive(str(artifacts), "zip", artifacts))
    entries = (artifacts / "python").iterdir()  # packages, and extension modules such as DuckDB's _duckdb*.so
    packages = {p.name.split(".")[0]: tree_bytes(p) if p.is_dir() else p.stat().st_size for p in entries}
    largest = sorted(packages.items(), key=lambda item: -item[1])[:6]
    return {
        "unzipped_mb": tree_bytes(artifacts) / 1e6,
        "zipped_mb": archive.stat().st_size / 1e6,
        "bytecode": any((artifacts / "python").rglob("*.pyc")),
        "largest": [{"package": name, "mb": mb / 1e6} for name, mb in largest],
    }


def import_ms(python: str, layer: Path, repeat: int = 5) -> float:
    """Median ms for a fresh interpreter to import the events function and create an S3 client from `layer`."""
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": f"{layer / 'python'}:{ROOT / 'functions' / 'search_events'}",
        "PYTHONDONTWRITEBYTECODE": "1",
        "POWERTOOLS_TRACE_DISABLED": "1",
    }
    probe = [python, "-c", IMPORT_PROBE]
    runs = [
        float(subprocess.run(probe, env=env, cwd="/tmp", capture_output=True, text=True, check=True).stdout)
        for _ in range(repeat)
    ]
    return statistics.median(runs)


def main() -> None:
    result = size(build_layer(BUILD / "layer"))
    python = subprocess.run([*LAYER_MAKE, "bytecode-python"], capture_output=True, text=True).stdout.strip()
    if python:
        with_bytecode = build_layer(BUILD / "layer-x86", "ARCH=x86_64")
        without = build_layer(BUILD / "layer-x86-no-bytecode", "ARCH=x86_64", "BYTECODE_PYTHON=")
        result["cold_import_ms"] = {"with_bytecode": import_ms(python, with_bytecode),
                                    "without_bytecode": import_ms(python, without), "python": python}  # fmt: skip
    (BUILD / "layer.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
