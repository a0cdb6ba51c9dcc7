#!/usr/bin/env bash
# ci/gogettest.sh: a user gets vg with go get. ci/test runs it.
#
#	ci/gogettest.sh
#
# 1. go run ./ci/cmd/release check: every recorded release is sound (its zip
#    hashes as recorded, its go.mod requires vg's modules only at released
#    versions, apidiff finds no incompatible change without a major step)
#    and every released module is released as HEAD has it.
# 2. From an empty folder, with vg's modules only from a module proxy of the
#    recorded releases (ci/userenv.sh): go get the three algorithm modules at
#    @latest, check that they resolve to the latest recorded versions, build
#    and run a program that uses all three, and check that after go mod tidy
#    the user's go.mod requires none of vg's test-only and model modules
#    (testify, yaml, asmgen/x86sim) and the program builds none of their
#    packages. The user's go.mod, module graph and go.sum are printed.
# 3. go test -short of every package of the fetched vg modules, from the
#    module cache, as a user who tests their dependencies would.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

echo "== go run ./ci/cmd/release check"
go run ./ci/cmd/release check

work=$(mktemp -d "${TMPDIR:-/tmp}/vg-gogettest.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$root/ci/userenv.sh"
vg_user_env "$work"
latest() { awk -v d="$1" '$1 == d { v = $2 } END { print v }' "$root/ci/releases.txt"; }

mkdir "$work/user"
cd "$work/user"
echo "== in the empty folder $work/user: GOPROXY=$GOPROXY"
go mod init example.com/user
algs="aesgcm chacha20poly1305 rsa"
mods=()
for m in $algs; do
	mods+=("github.com/vgcrypto/vg/$m@latest")
done
go get "${mods[@]}"
for m in $algs; do
	have=$(go list -m -f '{{.Version}}' "github.com/vgcrypto/vg/$m")
	want=$(latest "$m")
	if [ "$have" != "$want" ]; then
		echo "gogettest: @latest of $m is $have, not the last recorded release $want" >&2
		exit 1
	fi
	echo "$m@latest is $have, the last recorded release"
done

cat >main.go <<'GO'
package main

import (
	"bytes"
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"fmt"
	"log"

	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/rsa"
)

func main() {
	key := make([]byte, 32)
	nonce := make([]byte, 12)
	msg := []byte("fetched with go get")
	a, err := aesgcm.Prepare(key)
	if err != nil {
		log.Fatal(err)
	}
	c, err := chacha20poly1305.Prepare(key)
	if err != nil {
		log.Fatal(err)
	}
	for _, aead := range []interface {
		Seal(dst, nonce, plaintext, ad []byte) []byte
		Open(dst, nonce, ciphertext, ad []byte) ([]byte, error)
	}{a, c} {
		out, err := aead.Open(nil, nonce, aead.Seal(nil, nonce, msg, nil), nil)
		if err != nil || !bytes.Equal(out, msg) {
			log.Fatalf("round trip: %q, %v", out, err)
		}
	}
	std, err := stdrsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		log.Fatal(err)
	}
	k, err := rsa.NewPrivateKey(std)
	if err != nil {
		log.Fatal(err)
	}
	digest := sha256.Sum256(msg)
	sig, err := k.Sign(rand.Reader, digest[:], crypto.SHA256)
	if err != nil {
		log.Fatal(err)
	}
	if err := stdrsa.VerifyPKCS1v15(&std.PublicKey, crypto.SHA256, digest[:], sig); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ok: AES-GCM (%s), ChaCha20-Poly1305 (%s), RSA-2048 (%s)\n", a.Backend(), c.Backend(), k.Backend())
}
GO
go mod tidy
go run . | tee run.out
grep -q '^ok: ' run.out
echo "== the user's go.mod"
cat go.mod
echo "== the user's module graph (go mod graph)"
go mod graph
if grep -nE 'stretchr/testify|go\.yaml\.in/yaml|vgcrypto/vg/asmgen/x86sim' go.mod; then
	echo "gogettest: the user's go.mod requires a module vg needs only for its own tests or the model (above)" >&2
	exit 1
fi
if go list -deps . | grep -E 'stretchr/testify|go\.yaml\.in/yaml|vgcrypto/vg/asmgen/x86sim|vgcrypto/vg/internal/aeadtest'; then
	echo "gogettest: the user's program builds a test-only or model package of vg's (above)" >&2
	exit 1
fi
echo "go.mod requires no test-only or model module, and the program builds none of their packages"
echo "go.sum ($(wc -l <go.sum) lines) also holds the checksums go test of the imported vg packages needs (go mod tidy keeps them):"
grep -E 'stretchr/testify|go\.yaml\.in/yaml|vgcrypto/vg/asmgen/x86sim' go.sum | sed 's/^/    /' || true

echo "== go test -short of the fetched modules"
pkgs=()
for m in $algs cpufeat stackscratch internal; do
	pkgs+=("github.com/vgcrypto/vg/$m/...")
done
go get -t "${pkgs[@]}"
go test -short "${pkgs[@]}"

