#!/usr/bin/env bash
# ci/quickstart.sh: follows the README's install recipe and runs each of its
# quick starts from an empty folder, as a new user would, with vg's modules
# fetched by go get from a module proxy of the recorded releases
# (ci/userenv.sh). ci/test runs it.
#
#	ci/quickstart.sh [DIR]
#
# DIR (made when missing) must be empty; by default a temporary folder,
# removed afterwards. The README is the source: the shell block after the
# line "<!-- quickstart: install -->" is run in DIR/user, then every Go block
# after a line "<!-- quickstart: NAME -->" is written to main.go in that
# folder and run with go run . (one program at a time, as a reader trying
# each one). Nothing is typed twice, so the README's code is the code that
# runs. With GOARCH and VG_TEST_EMULATOR set (ci/test's arm64 step:
# GOARCH=arm64, VG_TEST_EMULATOR=qemu-aarch64), the programs are built for
# that GOARCH and run under the emulator. It needs Go, git (the proxy is made
# from the history) and the modules vg requires (golang.org/x/sys,
# golang.org/x/crypto): from the module cache or the Go module proxy. It
# prints each command and each program's output, and fails on the first
# error or when a program's output lacks what the README says it prints (a
# comment "// Prints: TEXT" in the block; every such TEXT must be in the
# output).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readme="$root/README.md"

dir=${1:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d "${TMPDIR:-/tmp}/vg-quickstart.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
if [ -n "$(ls -A "$dir")" ]; then
	echo "quickstart: $dir is not empty" >&2
	exit 2
fi

# block NAME: the fenced code block that follows the line
# "<!-- quickstart: NAME -->" (blank lines between them allowed).
block() {
	awk -v marker="<!-- quickstart: $1 -->" '
		$0 == marker { armed = 1; next }
		armed && !inside && /^```/ { inside = 1; next }
		inside && /^```/ { exit }
		inside { print }
		armed && !inside && NF > 0 { exit }
	' "$readme"
}

names=$(sed -n 's/^<!-- quickstart: \([a-z0-9]*\) -->$/\1/p' "$readme" | grep -vx install || true)
install=$(block install)
if [ -z "$install" ] || [ -z "$names" ]; then
	echo "quickstart: README.md has no <!-- quickstart: install --> block or no program blocks" >&2
	exit 1
fi

# The user's environment, not vg's: vg's releases from a module proxy.
. "$root/ci/userenv.sh"
vg_user_env "$dir"
mkdir "$dir/user"
cd "$dir/user"
echo "quickstart: in the empty folder $dir/user ($(go version | cut -d' ' -f3), GOPROXY=$GOPROXY)"
echo "$install" | sed 's/^/$ /'
bash -euo pipefail -c "$install" 2>&1
# The recipe ends inside the new module's folder: the last cd of the block.
app=$(echo "$install" | sed -n 's/^mkdir \([^ &]*\).*/\1/p' | tail -n1)
cd "$dir/user/$app"

for name in $names; do
	code=$(block "$name")
	echo
	echo "quickstart: $name: main.go ($(echo "$code" | wc -l) lines from README.md), go run ."
	printf '%s\n' "$code" >main.go
	out=$(go run ${VG_TEST_EMULATOR:+-exec "$VG_TEST_EMULATOR"} . 2>&1) || {
		echo "$out"
		echo "quickstart: $name failed" >&2
		exit 1
	}
	echo "$out" | sed 's/^/    /'
	while IFS= read -r want; do
		[ -n "$want" ] || continue
		if ! grep -qF -- "$want" <<<"$out"; then
			echo "quickstart: $name: the output lacks \"$want\", which the README says it prints" >&2
			exit 1
		fi
	done < <(echo "$code" | sed -n 's|.*// Prints: ||p')
done
echo
echo "quickstart: every quick start ran: $(echo $names)"
