#!/usr/bin/env bash
# Does installing xdsl-gpu change what stock xDSL does? Runs xDSL's own filecheck suite
# (from the sdist of the exact xDSL version installed here, fetched from PyPI) twice:
# in a fresh venv with xDSL alone, and in the current environment, where xdsl-gpu and
# its xdsl-opt plugin are installed. A test that passes without the package and fails
# with it is a regression. Tests that fail in both (optional tools missing) do not count.
#
# Usage: tools/xdsl_own_suite.sh [WORK_DIR]
# Exit status: 0 if the regressions are exactly those listed in
# tools/xdsl_own_suite.known (each with its reason), 1 otherwise; the lists are printed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
known="$root/tools/xdsl_own_suite.known"
version=$(python3 -c "import importlib.metadata as m; print(m.version('xdsl'))")
mkdir -p "$work"

if [ ! -d "$work/src/tests/filecheck" ]; then
  python3 -m pip download -q --no-deps --no-binary :all: -d "$work/sdist" "xdsl==$version"
  mkdir -p "$work/src"
  tar -xzf "$work"/sdist/xdsl-*.tar.gz -C "$work/src" --strip-components=1 \
    --wildcards '*/tests/filecheck/*'
fi
if [ ! -x "$work/stock/bin/lit" ]; then
  python3 -m venv "$work/stock"
  "$work/stock/bin/pip" install -q --disable-pip-version-check "xdsl==$version" lit filecheck
fi

run_suite() {  # $1: label, $2: PATH prefix (bin folder holding xdsl-opt, lit, filecheck)
  (cd "$work/src/tests/filecheck" && PATH="$2:$PATH" lit -j"$(nproc)" -q . \
    > "$work/$1.txt" 2>&1 || true)
  { grep -oE "^  xDSL :: \S+" "$work/$1.txt" || true; } | sed 's/^  xDSL :: //' \
    | sort > "$work/$1.failed"  # grep finds nothing when every test passes
}
run_suite stock "$work/stock/bin"
run_suite plugin "$(dirname "$(command -v xdsl-opt)")"

comm -13 "$work/stock.failed" "$work/plugin.failed" > "$work/regressions"
grep -oE '^[^# ]\S*' "$known" | sort > "$work/known" || true
new=$(comm -23 "$work/regressions" "$work/known")
fixed=$(comm -13 "$work/regressions" "$work/known")
echo "xDSL $version's own filecheck suite: $(wc -l < "$work/stock.failed") fail without" \
  "xdsl-gpu, $(wc -l < "$work/plugin.failed") with it;" \
  "$(wc -l < "$work/regressions") regressions ($(wc -l < "$work/known") known)"
[ -z "$new" ] || printf 'new regressions (details in %s/plugin.txt):\n%s\n' "$work" "$new"
[ -z "$fixed" ] || printf 'listed as known but passing now (remove from %s):\n%s\n' \
  "tools/xdsl_own_suite.known" "$fixed"
[ -z "$new" ] && [ -z "$fixed" ]
