# ci/userenv.sh: sourced by ci/quickstart.sh and ci/gogettest.sh, which then
# call vg_user_env DIR. It writes a module proxy of vg's recorded releases
# (ci/releases.txt, served by go run ./ci/cmd/release proxy) to DIR/proxy and
# sets the environment of a user who fetches vg with go get from it:
#
#   GOWORK=off                no workspace of vg's
#   GOFLAGS=-mod=mod ...      the user's go.mod and go.sum updated as needed
#   GOPROXY=file://DIR/proxy,file://<module cache>/cache/download,https://proxy.golang.org
#                             vg's modules from the releases only; third-party
#                             modules from this machine's module cache, else
#                             the Go module proxy (off when GOPROXY was off)
#   GONOSUMDB=github.com/vgcrypto/vg
#                             the checksum database has never seen these versions
#   GOMODCACHE=DIR/modcache   a module cache of its own (writable, removable),
#                             so that a cached copy of a vg version is never used
vg_user_env() {
	local dir=$1 root
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	local cache upstream=https://proxy.golang.org
	cache=$(go env GOMODCACHE)
	if [ "$(go env GOPROXY)" = off ]; then
		upstream=off
	fi
	mkdir -p "$dir/proxy" "$dir/modcache"
	# The tool runs here, whatever GOARCH the programs are built for.
	(cd "$root" && env -u GOARCH -u GOOS go run ./ci/cmd/release proxy "$dir/proxy") || return 1
	export GOWORK=off
	export GOFLAGS="-mod=mod -modcacherw"
	export GOPROXY="file://$dir/proxy,file://$cache/cache/download,$upstream"
	export GONOSUMDB=github.com/vgcrypto/vg
	export GOMODCACHE="$dir/modcache"
}
