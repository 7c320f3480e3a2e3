#!/usr/bin/env bash
# The steps of the logicscore GitHub Action (action.yml): score the answers (unless the file is
# already scored), write the markdown report to the job summary, gate the run, and fail the job
# naming the failing records. Runs the same on a laptop: set the GITHUB_* files it appends to.
#
#   LOGICSCORE_INPUT        the answers JSONL (or, with LOGICSCORE_SCORED=true, a scored file)
#   LOGICSCORE_OUTPUT       where the scored records go (default: logicscore-results.jsonl)
#   LOGICSCORE_SCORE_ARGS   extra `score` options, shell-quoted (e.g. "--format ragas")
#   LOGICSCORE_GATE_ARGS    `gate` options, shell-quoted (empty: [tool.logicscore.gate] of pyproject.toml)
#   LOGICSCORE_PYTHON       the Python that has logicscore (default: python3)
# Exit codes are gate's: 0 pass, 1 a threshold failed or every record errored, 2 usage error.
set -uo pipefail

py="${LOGICSCORE_PYTHON:-python3}"
input="${LOGICSCORE_INPUT:?set LOGICSCORE_INPUT (the action input 'input') to the answers JSONL}"
out="${LOGICSCORE_OUTPUT:-logicscore-results.jsonl}"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
outputs="${GITHUB_OUTPUT:-/dev/null}"
work="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"

words() {  # shell-quoted words, one per line, without running anything they say
  "$py" -c 'import shlex, sys; sys.stdout.write("".join(w + "\n" for w in shlex.split(sys.argv[1])))' "$1"
}
mapfile -t score_args < <(words "${LOGICSCORE_SCORE_ARGS:-}")
mapfile -t gate_args < <(words "${LOGICSCORE_GATE_ARGS:-}")

if [ "${LOGICSCORE_SCORED:-false}" = "true" ]; then
  out="$input"
else
  "$py" -m logicscore score "$input" -o "$out" --no-timing "${score_args[@]}"
  code=$?
  if [ "$code" -ne 0 ]; then
    echo "::error title=logicscore score::scoring $input failed (exit $code); see the log above"
    echo "results=$out" >> "$outputs"
    exit "$code"
  fi
fi
echo "results=$out" >> "$outputs"

"$py" -m logicscore report "$out" --md "$work/logicscore-report.md" || exit 2
verdict="$work/logicscore-gate.json"
"$py" -m logicscore gate "$out" "${gate_args[@]}" --junit "$work/logicscore-junit.xml" --json > "$verdict"
code=$?
echo "junit=$work/logicscore-junit.xml" >> "$outputs"

# The verdict, the failing records (ids, input lines, why) and the report, in the job summary;
# a failed gate also as an error annotation on the run's page.
"$py" - "$verdict" "$code" "$summary" "$outputs" "$work/logicscore-report.md" <<'PY'
import json, sys
path, code, summary, outputs, report = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
try:
    with open(path, encoding="utf-8") as fh:
        verdict = json.load(fh)
except ValueError:  # gate refused the run (exit 2): its one-line reason is in the log
    verdict = None
lines = []
if verdict is None:
    lines.append(f"## logicscore gate: could not run (exit {code})\n\nSee the job log for the reason.\n")
else:
    lines.append(f"## logicscore gate: {'PASS' if verdict['passed'] else 'FAIL'} ({verdict['records']} records)\n")
    lines.append("| check | value | limit | verdict |\n|---|---|---|---|")
    for c in verdict["checks"]:
        value = "-" if c["value"] is None else f"{c['value']:.4f}"
        lines.append(f"| {c['name']} | {value} | {c['op']} {c['threshold']:g} | {'pass' if c['passed'] else '**FAIL**'} |")
    for s in verdict["skipped"]:
        lines.append(f"\nskipped: {s}")
    regressed = verdict.get("regressed_records", [])
    if regressed:
        lines.append(f"\n### Regressed records ({len(regressed)}): complete in the baseline, not any more\n\n"
                     "| id | line | now |\n|---|---|---|")
        lines += [f"| `{r['id']}` | {r['line']} | {r['new']} |" for r in regressed]
    failing = verdict["failing_records"]
    if failing:
        lines.append(f"\n### Failing records ({len(failing)})\n\n| id | line | why |\n|---|---|---|")
        for r in failing:
            why = r["failure"].replace("|", "\\|")
            lines.append(f"| `{r['id']}` | {r['line']} | {why} |")
    with open(outputs, "a", encoding="utf-8") as fh:
        fh.write(f"passed={'true' if verdict['passed'] else 'false'}\n")
        fh.write(f"failing={','.join(str(r['id']) for r in failing)}\n")
    if not verdict["passed"]:
        failed = [c["name"] for c in verdict["checks"] if not c["passed"]]
        ids = ", ".join(str(r["id"]) for r in failing[:50]) or "none"
        print(f"::error title=logicscore gate failed::{'; '.join(failed)} failed; failing records: {ids}")
with open(report, encoding="utf-8") as fh:
    lines.append("\n" + fh.read())
with open(summary, "a", encoding="utf-8") as fh:
    fh.write("\n".join(lines) + "\n")
PY
exit "$code"
