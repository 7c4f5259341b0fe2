"""The walk-through "Add your own dataset" (docs/datasets.md), done on a copy of the repository: one spec file and one
catalogue entry (plus the CSV) are all a new action group takes; `make schema` writes the rest, the agent's
instruction included, and the new function answers a real Bedrock event from data published as `make upload-data`
publishes it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cfnlint.api import lint_file
from cfnlint.decode import decode_str
from tooling import ROOT

from search_core.catalogue import ACTION_GROUPS

SPEC = '''"""parks.csv: the parks of the area."""

from __future__ import annotations

from search_core.datasets.spec import Column, DatasetSpec, Example

PARKS = DatasetSpec(
    name="parks",
    title="公園情報",
    columns=(
        Column("park_name", "TEXT", "公園名"),
        Column("ward", "TEXT", "区"),
        Column("area_m2", "INTEGER", "面積（平方メートル）"),
        Column("facilities", "JSON", '配列 例: ["遊具", "トイレ"]'),
    ),
    examples=(Example("遊具のある公園", "SELECT park_name FROM parks WHERE facilities LIKE '%遊具%'"),),
    no_results_message="検索条件に一致する公園が見つかりませんでした",
)
'''
CSV = """park_name,ward,area_m2,facilities
有栖川宮記念公園,港区,67131,"[""遊具"", ""トイレ"", ""図書館""]"
芝公園,港区,120000,"[""トイレ""]"
檜町公園,港区,16000,"[""遊具"", ""池""]"
"""
# What `make schema` writes for the new action group, besides the regions of template.yaml.
GENERATED = {
    "template.yaml",
    "events/env.json",
    "functions/search_parks/app.py",
    "events/search_parks/example.json",
    "events/search_parks/profile.json",
}
HAND_WRITTEN = {"layers/shared/python/search_core/datasets/parks.py", "layers/shared/python/search_core/catalogue.py"}
COPIED = [
    "functions",
    "scripts",
    "tooling",
    "local_mcp",
    "events",
    "data",
    "template.yaml",
    "pyproject.toml",
    "tests/attacks",
    "docs/deployment.md",  # make schema writes its deploy permissions
]

CALL_IT = """
import json
import boto3
from moto import mock_aws
from tooling.attacks import TARGETS
from tooling.local import LambdaContext, body_of, import_function, load_event, sql_event
from tooling.publish import publish_catalogue

with mock_aws():
    region = {"LocationConstraint": "ap-northeast-1"}
    boto3.client("s3").create_bucket(Bucket="parks-data", CreateBucketConfiguration=region)
    published = list(publish_catalogue("parks-data"))
    function = import_function("search_parks")
    example = function.lambda_handler(load_event("search_parks/example.json"), LambdaContext())
    typed_sql = "SELECT max(area_m2) AS m, jst_today() > DATE '2025-01-01' AS clock FROM parks"
    typed = function.lambda_handler(sql_event("search_parks", typed_sql), LambdaContext())
    attack_sql = "SELECT * FROM read_text('/etc/passwd')"
    attack = function.lambda_handler(sql_event("search_parks", attack_sql), LambdaContext())
    function.function.close()
print("RESULT " + json.dumps({"published": published, "example": body_of(example), "targets": sorted(TARGETS),
      "typed": body_of(typed),
      "attack": attack["response"]["httpStatusCode"]}, ensure_ascii=False))
"""


def fingerprints(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def run(copy: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(
        AWS_DEFAULT_REGION="ap-northeast-1",
        AWS_ACCESS_KEY_ID="x",
        AWS_SECRET_ACCESS_KEY="x",
        PARKS_URI="s3://parks-data/data/parks.csv",
        DATA_CACHE_DIR=str(copy / "cache"),
        POWERTOOLS_LOG_LEVEL="ERROR",
    )
    env.pop("AWS_ENDPOINT_URL_S3", None)
    done = subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def added(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    """A copy of the repository with the parks dataset added as docs/datasets.md says; the files that changed."""
    copy = tmp_path_factory.mktemp("repo")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "layers" / "shared" / "python", copy / "layers" / "shared" / "python", ignore=ignore)
    for name in COPIED:
        source = ROOT / name
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree(source, copy / name, ignore=ignore) if source.is_dir() else shutil.copy(source, copy / name))
    before = fingerprints(copy)
    package = copy / "layers" / "shared" / "python" / "search_core"
    (package / "datasets" / "parks.py").write_text(SPEC, encoding="utf-8")
    catalogue = (package / "catalogue.py").read_text(encoding="utf-8")
    catalogue = catalogue.replace(
        "from search_core.datasets.stores import STORES\n",
        "from search_core.datasets.parks import PARKS\nfrom search_core.datasets.stores import STORES\n",
    ).replace(
        '        sql_group(STORES, "店舗・施設", "店舗・施設情報を SQL で検索する"),\n',
        '        sql_group(STORES, "店舗・施設", "店舗・施設情報を SQL で検索する"),\n'
        '        sql_group(PARKS, "公園", "公園の情報を SQL で検索する"),\n',
    )
    (package / "catalogue.py").write_text(catalogue, encoding="utf-8")
    (copy / "data" / "parks.csv").write_text(CSV, encoding="utf-8")
    run(copy, "scripts/schema.py")
    after = fingerprints(copy)
    changed = {path for path in after if before.get(path) != after[path]}
    return copy, changed


def test_only_the_spec_the_catalogue_and_the_data_were_written_by_hand(added: tuple[Path, set[str]]) -> None:
    _, changed = added
    assert changed == HAND_WRITTEN | GENERATED | {"data/parks.csv"}


def test_make_schema_wrote_the_function_its_payload_and_its_permissions(added: tuple[Path, set[str]]) -> None:
    copy, _ = added
    run(copy, "scripts/schema.py", "--check")
    template, errors = decode_str((copy / "template.yaml").read_text(encoding="utf-8"))
    assert not errors
    function = template["Resources"]["SearchParksFunction"]["Properties"]
    assert function["CodeUri"] == "functions/search_parks/"
    assert function["Environment"]["Variables"]["PARKS_URI"]["Fn::Sub"][0] == "s3://${Bucket}/${ParksKey}"
    readable = [r["Fn::Sub"][0] for s in function["Policies"][0]["Statement"] for r in s["Resource"]]
    assert readable == [
        "arn:${AWS::Partition}:s3:::${Bucket}/${ParksKey}",
        "arn:${AWS::Partition}:s3:::${Bucket}/${ParksKey}.duckdb",
    ]
    assert template["Parameters"]["ParksKey"]["Default"] == "data/parks.csv"
    assert template["Resources"]["SearchParksInvokePermission"]["Properties"]["SourceArn"] == {
        "Fn::GetAtt": ["Agent", "AgentArn"]
    }
    group = next(
        g
        for g in template["Resources"]["Agent"]["Properties"]["ActionGroups"]
        if g["ActionGroupName"] == "search_parks"
    )
    payload = json.loads(group["ApiSchema"]["Payload"])
    assert payload["info"]["title"] == "公園検索"
    assert payload["paths"]["/parks/search"]["post"]["operationId"] == "searchParks"
    assert "park_name (TEXT): 公園名" in json.dumps(payload, ensure_ascii=False)
    assert [str(match) for match in lint_file(copy / "template.yaml")] == []


def test_the_agents_instruction_names_the_new_action_group_with_what_it_holds(added: tuple[Path, set[str]]) -> None:
    copy, _ = added
    template, errors = decode_str((copy / "template.yaml").read_text(encoding="utf-8"))
    assert not errors
    instruction = template["Resources"]["Agent"]["Properties"]["Instruction"]
    assert "イベントと店舗・施設と公園を案内します。search_events・search_stores・search_parks\n" in instruction
    assert all(name in instruction for name in [*ACTION_GROUPS, "search_parks"])
    assert template["Resources"]["Harness"]["Properties"]["SystemPrompt"] == [{"Text": instruction}]


def test_the_new_function_answers_from_the_published_data(added: tuple[Path, set[str]]) -> None:
    copy, _ = added
    out = run(copy, "-c", CALL_IT)
    result = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[7:])
    assert any(line.startswith("parks: 3 rows checked") for line in result["published"])
    assert result["example"]["results"] == [{"park_name": "有栖川宮記念公園"}, {"park_name": "檜町公園"}]
    assert result["typed"]["results"] == [{"m": 120000, "clock": True}]  # INTEGER loaded as such; the JST clock
    assert result["attack"] == 400
    assert "search_parks" in result["targets"]  # the attack corpus and the property tests run against it too
