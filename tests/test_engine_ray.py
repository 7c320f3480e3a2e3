"""`--engine ray`: a local Ray's actors give the records of one local run, byte for byte, in order."""

import io as stdio
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logicscore.auditor import Auditor
from logicscore.cli import app
from logicscore.config import AuditorConfig
from logicscore.run.engines import ray as engine
from logicscore.errors import ConfigError
from logicscore.formats import read_lines
from logicscore.files import input_files

pytestmark = pytest.mark.slow
runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[1] / "corpora" / "examples.jsonl"


def _lines() -> list[bytes]:
    """The worked examples with every kind of line a worker must turn into an error record:
    broken JSON, a blank line, bad UTF-8, a missing answer, a long answer over --max-chars;
    then a RAGAS row and one without its short answer (read by --format auto, per line)."""
    good = [line.encode() for line in EXAMPLES.read_text().splitlines() if line.strip()]
    odd = [b'{"id": "broken", "question": ', b"", b"\xff\xfe not UTF-8",
           json.dumps({"id": "no-answer", "question": "Who?"}).encode(),
           json.dumps({"id": "huge", "question": "Who wrote it?", "answer": "Ann",
                       "long_answer": "Ann wrote it. " * 400}).encode()]
    ragas = {"user_input": "Where was the director of Timber Falls born?",
             "response": "Timber Falls was directed by Tony Giglio. Tony Giglio was born in Medford.\n"
                         "Answer: Medford", "reference": "Tony Giglio was born in Medford."}
    rows = [json.dumps(ragas).encode(), json.dumps({"user_input": "Q", "response": "L"}).encode()]
    return [line + b"\n" for line in [good[0], *odd, *good[1:], *rows]]


def _shards(folder: Path, lines: list[bytes], cuts=(3, 7)) -> Path:
    """`lines` cut into three files whose names sort in input order."""
    folder.mkdir()
    bounds = [0, *cuts, len(lines)]
    for n, (a, b) in enumerate(zip(bounds, bounds[1:])):
        (folder / f"part-{n}.jsonl").write_bytes(b"".join(lines[a:b]))
    return folder


def _local(config: AuditorConfig, lines: list[bytes]) -> list[str]:
    return [r.model_dump_json() for r in Auditor(config=config).audit_many(
        read_lines(stdio.BytesIO(b"".join(lines))))]


@pytest.fixture(scope="module")
def cluster():
    ray = engine.require()
    engine.start(num_cpus=2)
    yield ray
    ray.shutdown()


@pytest.mark.ray
def test_local_ray_listens_on_loopback_and_runs_this_logicscore(cluster):
    assert {node["NodeManagerAddress"] for node in cluster.nodes()} == {"127.0.0.1"}

    @cluster.remote
    def where():
        import logicscore

        return logicscore.__file__

    assert cluster.get(where.remote()) == engine.__file__.replace("run/engines/ray.py", "__init__.py")


@pytest.mark.ray
def test_ray_records_equal_the_local_run_across_shards_and_windows(cluster, tmp_path):
    config = AuditorConfig(timing=False, max_chars=2000)
    lines = _lines()
    folder = _shards(tmp_path / "shards", lines)
    # Windows of two: records come back from both actors, windows span the shard borders.
    got = [r.model_dump_json() for r in engine.audit_files(config, folder, workers=2, window=2)]
    assert got == _local(config, lines)
    errors = [json.loads(r)["error"] for r in got if json.loads(r)["status"] == "error"]
    assert [e["line"] for e in errors] == [2, 3, 4, 5, 6, 13]
    assert all(e["type"] == "InputError" for e in errors)
    assert json.loads(got[11])["meta"]["record"]["format"] == "ragas"


@pytest.mark.ray
def test_ray_cli_is_byte_identical_and_resumes(cluster, tmp_path, monkeypatch):
    monkeypatch.setattr("logicscore.pipeline.registry.PREPARE_WINDOW", 3)
    lines = _lines()
    whole = tmp_path / "all.jsonl"
    whole.write_bytes(b"".join(lines))
    _shards(tmp_path / "shards", lines)
    common = ["--no-timing", "-q", "--max-chars", "2000"]
    local = runner.invoke(app, ["score", str(whole), "-o", str(tmp_path / "local.jsonl"), *common])
    glob = str(tmp_path / "shards" / "part-*.jsonl")
    out = tmp_path / "ray.jsonl"
    ray = runner.invoke(app, ["score", glob, "-o", str(out), "--engine", "ray", "-w", "2", *common])
    assert local.exit_code == 0 and ray.exit_code == 0, ray.output
    expected = (tmp_path / "local.jsonl").read_bytes()
    assert out.read_bytes() == expected
    # --resume: the lines already written (a window and a half) are not audited again.
    out.write_bytes(b"".join(expected.splitlines(keepends=True)[:5]))
    again = runner.invoke(app, ["score", glob, "-o", str(out), "--engine", "ray", "-w", "2",
                                "--resume", *common])
    assert again.exit_code == 0, again.output
    assert out.read_bytes() == expected


@pytest.mark.ray
def test_ray_actor_keeps_the_record_timeout(cluster, tmp_path):
    # A Ray actor's calls run off the main thread unless told otherwise; --timeout needs it.
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(_lines()[:1] + _lines()[6:-2]))  # the worked examples alone
    config = AuditorConfig(timing=False, timeout=0.001)
    got = list(engine.audit_files(config, path, workers=1))
    assert {r.error.type for r in got if r.error is not None} == {"Timeout"}


def test_windows_number_the_files_as_one_input_and_leave_out_done_lines(tmp_path):
    folder = _shards(tmp_path / "shards", [b"%d\n" % n for n in range(1, 11)], cuts=(4, 4))
    files = input_files(folder)
    assert [p.name for p in files] == ["part-0.jsonl", "part-1.jsonl", "part-2.jsonl"]
    spans = [(Path(w.path).name, w.first, w.skip) for w in engine.windows(files, {1, 2, 3, 5}, size=3)]
    # part-1 is empty; lines 1-3 are done, so their window is left out.
    assert spans == [("part-0.jsonl", 4, ()), ("part-2.jsonl", 5, (5,)), ("part-2.jsonl", 8, ())]
    last = engine.windows(files, size=3)
    *_, tail = last
    with open(tail.path, "rb") as fh:
        fh.seek(tail.start)
        assert fh.read(tail.end - tail.start) == b"8\n9\n10\n"


def test_expand_refuses_a_name_that_matches_nothing(tmp_path):
    with pytest.raises(ConfigError, match="matches no file"):
        input_files(str(tmp_path / "*.jsonl"))
    with pytest.raises(ConfigError, match=r"holds no \.jsonl file"):
        input_files(tmp_path)
    with pytest.raises(ConfigError, match="not found"):
        input_files([tmp_path / "missing.jsonl"])


def test_worker_that_cannot_read_its_window_stops_the_run():
    scorer = engine.Scorer(AuditorConfig(extractor="given"), "auto", {})
    failed = scorer._audit(engine.Window("/nonexistent/in.jsonl", 0, 10, 1))
    assert isinstance(failed, ConfigError) and "same path on every node" in failed.message


def _score(tmp_path, *extra, input_=None):
    src = tmp_path / "in.jsonl"
    src.write_bytes(b"".join(_lines()[:2]))
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["score", input_ or str(src), "-o", str(out), "-q", *extra])
    return result, out


def test_ray_engine_without_ray_installed_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    result, out = _score(tmp_path, "--engine", "ray")
    assert result.exit_code == 2
    assert result.output.strip() == "Error: " + engine.INSTALL_HINT
    assert not out.exists()


@pytest.mark.ray  # Ray is looked for first: without it every refusal is the install line
@pytest.mark.parametrize(("extra", "input_", "message"), [
    (["--engine", "spark"], None, "--engine must be 'local' or 'ray'"),
    (["--engine", "ray"], "-", "not stdin"),
    (["--engine", "ray"], "nowhere/*.jsonl", "matches no file"),
    (["--engine", "ray", "--extractor", "llm", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"],
     None, "spaCy path only"),
])
def test_ray_engine_refusals_exit_2_before_writing(tmp_path, extra, input_, message):
    result, out = _score(tmp_path, *extra, input_=input_)
    assert result.exit_code == 2 and message in result.output, result.output
    assert not out.exists()


@pytest.mark.ray  # --engine ray looks for Ray before it reads a folder
def test_ray_estimate_over_a_folder_counts_its_files_as_one_input(tmp_path):
    lines = _lines()
    folder = _shards(tmp_path / "shards", lines)
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(lines))
    out = tmp_path / "out.jsonl"
    sharded = CliRunner().invoke(app, ["score", str(folder), "-o", str(out), "--engine", "ray", "--estimate"])
    local = CliRunner().invoke(app, ["score", str(whole), "-o", str(out), "--estimate"])
    assert sharded.exit_code == local.exit_code == 0, sharded.output
    assert json.loads(sharded.stdout) == json.loads(local.stdout)
    # the readable records of all three files, none counted twice or left out
    assert 0 < json.loads(sharded.stdout)["records"] < len(lines)
    assert not out.exists()
