# shellcheck shell=bash
# The suites' python3 by its real path, exported as BNB_PYTHON once: a
# version manager's python3 on PATH may be a shim (pyenv's is a bash
# script that looks the version up on every call, 0.4 CPU s each where
# the interpreter itself takes 0.04), and the suites call python3 about
# 50 times. tests/run-tests resolves it for all of them; a suite run by
# itself resolves it through tests/lib/tap.sh.
if [ -z "${BNB_PYTHON:-}" ]; then
	BNB_PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
	export BNB_PYTHON
fi
