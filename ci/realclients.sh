#!/usr/bin/env bash
# ci/realclients.sh: the test suites of real programs, first as published, then
# with vg swapped in for the AEADs they use, then again under
# VG_CPU_FEATURES=none (vg's portable backends). ci/test runs it.
#
#	ci/realclients.sh [NAME-REGEXP]
#
# Clients, at pinned versions from the Go module proxy (go mod download), each
# copied out of the module cache into a temporary folder:
#   age        filippo.io/age v1.3.2: go test -short ./... (the whole module;
#              -short skips only internal/stream's iotest.TestReader passes
#              on inputs over 1000 bytes: 233 s of the full run's 261 s here);
#   wireguard  golang.zx2c4.com/wireguard (pseudo-version pinned below):
#              ./device, which holds all its (X)ChaCha20-Poly1305 use;
#   quic-go    github.com/quic-go/quic-go v0.65.0: ./internal/handshake, its
#              packet protection (the AES-GCM and ChaCha20-Poly1305 TLS 1.3
#              suites, Retry integrity tags, the token protector).
# REALCLIENTS_FULL=1 runs age without -short (its stream tests alone then take
# about 4 minutes per configuration) and adds quic-go's
# ./integrationtests/self (real connections over loopback, 427 tests), whose
# timing tests (1 s deadlines) fail on a loaded machine, more often under the
# slower portable AES: for manual runs, not ci/test.
#
# The swap, in a second copy, touches only the packages under test and the
# packages of the same module they import (go list -deps -test): every import
# of golang.org/x/crypto/chacha20poly1305 becomes
# github.com/vgcrypto/vg/chacha20poly1305, and in quic-go each
# "X, err := aes.NewCipher(key); if err != nil {...}" whose X goes to
# cipher.NewGCM (cipher suites, Retry) or cipher.NewGCMWithRandomNonce (token
# protector) becomes aesgcm.New(key) or aesgcm.NewWithRandomNonce(key). The
# edits are made by ci/cmd/realclients on the syntax tree, pinned to the sites
# of these versions (it fails, writing nothing, on any other count or shape),
# and printed as a diff. The copy's go.mod then requires and replaces the vg
# modules (and those they need) with this checkout's, and go mod tidy raises
# the client's requirements to vg's (golang.org/x/crypto v0.59.0, x/sys...),
# with GOWORK=off.
#
# Proof that the swap took effect: no file of those packages still imports
# x/crypto's package or calls cipher.NewGCM*, some import vg's, and go list
# -deps -test of the tested packages includes vg's chacha20poly1305 (and
# aesgcm for quic-go). It prints one line per client and configuration with
# the passed, failed and skipped tests (subtests included, from go test -json),
# and fails if a test that passed as published does not pass with vg (in
# either configuration), if a package fails to build, or if a proof fails.
# The tests that did not pass with vg are run once more (go test -run, same
# configuration) and the report says which passed then: intermittent, but
# still failures (a quic-go test picks its cipher suite at random, so a bug in
# one suite fails it only some of the time).
#
# NAME-REGEXP runs only the clients whose name matches. REALCLIENTS_KEEP=1
# keeps the temporary folder (its path is printed). Network: only the Go module
# proxy (GOPROXY), through the go command. About 2 minutes on 2 busy cores
# with warm caches; 4 with empty module and build caches, of which about 15 s
# are downloads.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
only=${1:-}

command -v go >/dev/null || { echo "realclients: go is not on PATH" >&2; exit 2; }
export GOTOOLCHAIN=local

work=$(mktemp -d "${TMPDIR:-/tmp}/vg-realclients.XXXXXX")
if [ "${REALCLIENTS_KEEP:-}" = 1 ]; then
	echo "realclients: keeping $work"
else
	trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fi

# The helper, built in the workspace before leaving it.
(cd "$root" && go build -o "$work/realclients" ./ci/cmd/realclients) || exit 2
rc="$work/realclients"

# From here on the clients are their own main modules: no go.work, and
# -mod=mod so that their go.mod and go.sum take the vg requirements.
export GOWORK=off
export GOFLAGS="-mod=mod -buildvcs=false"
unset VG_CPU_FEATURES

vg=github.com/vgcrypto/vg
xchacha=golang.org/x/crypto/chacha20poly1305

# The fuller runs, too slow or too timing-dependent for ci/test (see above).
age_flags=-short quic_pkgs=./internal/handshake
if [ "${REALCLIENTS_FULL:-}" = 1 ]; then
	age_flags= quic_pkgs="./internal/handshake ./integrationtests/self"
fi

# name|module|version|test packages|go test flags|swap arguments
clients=(
	"age|filippo.io/age|v1.3.2|./...|$age_flags|-import $xchacha=$vg/chacha20poly1305"
	"wireguard|golang.zx2c4.com/wireguard|v0.0.0-20260522210424-ecfc5a8d5446|./device||-import $xchacha=$vg/chacha20poly1305"
	"quic-go|github.com/quic-go/quic-go|v0.65.0|$quic_pkgs||-import $xchacha=$vg/chacha20poly1305 -gcm internal/handshake/cipher_suite.go=1 -gcm internal/handshake/retry.go=1 -gcm internal/handshake/token_protector.go=1"
)

# vgmodules DIR...: "path dir" for the vg modules in DIR... (folders of this
# checkout) and every vg module they require, found through the replace
# directives of their go.mod files (which point into this checkout).
vgmodules() {
	local todo=("$@") seen=" " d dirs line json
	while [ ${#todo[@]} -gt 0 ]; do
		d=$(cd "${todo[0]}" && pwd) || return 1
		todo=("${todo[@]:1}")
		[[ $seen == *" $d "* ]] && continue
		seen+="$d "
		json=$(go mod edit -json "$d/go.mod" | tr -d '\n\t ') || return 1
		echo "$(sed 's/^{"Module":{"Path":"\([^"]*\)".*/\1/' <<<"$json") $d"
		# The replace targets of this module's go.mod that are vg modules.
		dirs=$(grep -o '"Old":{"Path":"'"$vg"'/[^"]*"[^}]*},"New":{"Path":"[^"]*"' <<<"$json" | sed 's/.*"New":{"Path":"\([^"]*\)"/\1/')
		for line in $dirs; do
			case $line in
			/*) todo+=("$line") ;;
			*) todo+=("$d/$line") ;;
			esac
		done
	done
}

failures=()
summary=()

# run_client LINE: everything for one client; returns non-zero on a failure.
run_client() {
	local name mod ver pkgs flags swapargs
	IFS='|' read -r name mod ver pkgs flags swapargs <<<"$1"
	local dir="$work/$name"
	mkdir -p "$dir/empty"
	echo "=== $name: $mod@$ver, go test $flags $pkgs"

	local t0=$(date +%s) info src
	info=$(cd "$dir/empty" && go mod download -json "$mod@$ver") || { echo "$info"; return 1; }
	src=$(sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' <<<"$info")
	if [ -z "$src" ] || [ ! -d "$src" ]; then
		echo "go mod download gave no module folder:"
		echo "$info"
		return 1
	fi
	cp -R "$src" "$dir/stock" && cp -R "$src" "$dir/vg" && chmod -R u+w "$dir/stock" "$dir/vg" || return 1
	# The module graph and the packages' dependencies, downloaded now so that
	# the time below is the tests'.
	(cd "$dir/stock" && go list -deps -test $pkgs >/dev/null) || return 1
	echo "downloaded and copied in $(($(date +%s) - t0))s ($src)"

	# The client as published.
	t0=$(date +%s)
	(cd "$dir/stock" && go test -count=1 -json $flags $pkgs >"$dir/stock.json" 2>"$dir/stock.err")
	echo "as published: $(($(date +%s) - t0))s; $(cd "$dir/stock" && go list -m golang.org/x/crypto)"
	grep -v '^go: downloading' "$dir/stock.err" | tail -n 20
	summary+=("$("$rc" count -label "$(printf '%-10s %-26s' "$name" "$(label stock)")" "$dir/stock.json")")

	# The swap: the packages under test and their dependencies in the module.
	t0=$(date +%s)
	local scope
	scope=$(cd "$dir/vg" && go list -deps -test -f '{{if .Module}}{{if eq .Module.Path "'"$mod"'"}}{{.Dir}}{{end}}{{end}}' $pkgs | sort -u | sed "s|^$dir/vg\$|.|; s|^$dir/vg/|./|") || return 1
	echo "swap scope: $(echo $scope)"
	# shellcheck disable=SC2086
	"$rc" swap $swapargs "$dir/vg" $scope || { echo "the swap failed"; return 1; }

	# go.mod: require the vg modules swapped in, and replace them and every
	# vg module they need with this checkout's.
	local direct=("chacha20poly1305") m mpath mdir
	[[ $swapargs == *-gcm* ]] && direct+=("aesgcm")
	local edits=() mods
	for m in "${direct[@]}"; do
		edits+=("-require=$vg/$m@v0.0.0")
	done
	mods=$(vgmodules "${direct[@]/#/$root/}") || return 1
	while read -r mpath mdir; do
		edits+=("-replace=$mpath=$mdir")
	done <<<"$mods"
	(cd "$dir/vg" && go mod edit "${edits[@]}" && go mod tidy) || { echo "go mod edit/tidy failed"; return 1; }
	echo "--- the swap, as a diff (go.mod, then the Go files that changed):"
	(cd "$dir" && diff -u stock/go.mod vg/go.mod
		for d in $scope; do
			for f in "vg/$d"/*.go; do
				cmp -s "stock/${f#vg/}" "$f" || diff -u "stock/${f#vg/}" "$f"
			done
		done)
	echo "---"
	echo "swapped in $(($(date +%s) - t0))s"

	# Proof that the swap took effect.
	local proof_ok=1 d
	for d in $scope; do
		if grep -l "\"$xchacha\"" "$dir/vg/$d"/*.go 2>/dev/null; then
			echo "PROOF FAILED: the files above still import $xchacha"
			proof_ok=0
		fi
	done
	local importers
	importers=$(cd "$dir/vg" && for d in $scope; do grep -l "\"$vg/" "$d"/*.go; done 2>/dev/null)
	if [ -z "$importers" ]; then
		echo "PROOF FAILED: no file of the swapped packages imports $vg/..."
		proof_ok=0
	else
		echo "files importing vg: $(echo $importers)"
	fi
	local deps
	deps=$(cd "$dir/vg" && go list -deps -test $pkgs) || return 1
	for m in "${direct[@]}"; do
		if grep -qx "$vg/$m" <<<"$deps"; then
			echo "go list -deps -test $pkgs: includes $vg/$m"
		else
			echo "PROOF FAILED: go list -deps -test $pkgs does not include $vg/$m"
			proof_ok=0
		fi
	done
	echo "vg copy: $(cd "$dir/vg" && go list -m golang.org/x/crypto)"
	[ $proof_ok = 1 ] || return 1

	# With vg: every feature this CPU has, then the portable backends.
	run_tests "$dir" vg "" "$flags" $pkgs
	run_tests "$dir" vg-none none "$flags" $pkgs

	local ok=0 f
	for f in vg vg-none; do
		summary+=("$("$rc" count -label "$(printf '%-10s %-26s' "$name" "$(label "$f")")" $(reruns "$dir" "$f" | tail -n +2))")
	done
	for f in vg vg-none; do
		echo "--- as published vs $(label "$f"):"
		"$rc" compare $(reruns "$dir" "$f") || ok=1
	done
	return $ok
}

label() {
	case $1 in
	stock) echo "as published" ;;
	vg) echo "vg (all features)" ;;
	vg-none) echo "vg (VG_CPU_FEATURES=none)" ;;
	esac
}

# reruns DIR NAME: the compare arguments for configuration NAME: the stock
# results, its results, then those of its reruns.
reruns() {
	echo "$1/stock.json"
	echo "$1/$2.json"
	[ -s "$1/$2.rerun.json" ] && echo "$1/$2.rerun.json"
	return 0
}

# run_tests DIR NAME FEATURES FLAGS PKG...: go test -json in DIR/vg with
# VG_CPU_FEATURES=FEATURES (unset when empty) into DIR/NAME.json; then once
# more, into DIR/NAME.rerun.json, for the tests that passed as published and
# not here, so that the report can tell a deterministic failure from an
# intermittent one.
run_tests() {
	local dir=$1 name=$2 features=$3 flags=$4
	shift 4
	local env=(env -u VG_CPU_FEATURES)
	[ -n "$features" ] && env=(env VG_CPU_FEATURES="$features")
	local t0=$(date +%s)
	# shellcheck disable=SC2086
	(cd "$dir/vg" && "${env[@]}" go test -count=1 -json $flags "$@" >"$dir/$name.json" 2>"$dir/$name.err")
	echo "$(label "$name"): $(($(date +%s) - t0))s"
	if ! "$rc" compare -rerun-list "$dir/$name.rerun" "$dir/stock.json" "$dir/$name.json" >/dev/null && [ -s "$dir/$name.rerun" ]; then
		local pkg pattern
		while read -r pkg pattern; do
			echo "$(label "$name"): rerunning $pkg -run '$pattern'"
			# shellcheck disable=SC2086
			(cd "$dir/vg" && "${env[@]}" go test -count=1 -json $flags -run "$pattern" "$pkg" >>"$dir/$name.rerun.json" 2>>"$dir/$name.err")
		done <"$dir/$name.rerun"
	fi
	grep -v '^go: downloading' "$dir/$name.err" | tail -n 20
}

start=$(date +%s)
for c in "${clients[@]}"; do
	name=${c%%|*}
	if [ -n "$only" ] && ! [[ $name =~ $only ]]; then
		continue
	fi
	if ! run_client "$c"; then
		failures+=("$name")
	fi
done

echo
echo "realclients: tests passed/failed/skipped (subtests included), $(($(date +%s) - start))s"
printf '%s\n' "${summary[@]}"
if [ ${#failures[@]} -gt 0 ]; then
	echo "realclients: FAILED: ${failures[*]}"
	exit 1
fi
echo "realclients: ok"
