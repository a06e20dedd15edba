#!/usr/bin/env bash
# The whole test suite: the filecheck suite (lit), then pytest (GPU tests skip
# without a GPU). Run from anywhere; extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
lit -s tests/filecheck
python3 -m pytest -q "$@"
