#!/usr/bin/env bash
# ci/benchtiers.sh DIR measures vg's AEADs and RSA against the peers at the
# machine's own tier and at each tier below it that the CPU can emulate
# (go run ./ci/cmd/benchcmp -tier list), one results file per package and
# tier: DIR/<package>-<tier>.txt, the files that benchcmp -tiers turns into
# the READMEs' tier tables. Run it on an idle machine; it takes about five
# minutes on 2 vCPUs.
set -euo pipefail
dir=${1:?usage: ci/benchtiers.sh DIR (e.g. ci/results/$(date -u +%F)-xeon167)}
cd "$(dirname "$0")/.."
mkdir -p "$dir"
bench() { # tier package benchtime regexp
	go run ./ci/cmd/benchcmp -tier "$1" -peers -pair '*=best-peer' -count 10 -benchtime "$3" -bench "$4" -o "$dir/$2-$1.txt" "./$2" >/dev/null
}
for tier in $(go run ./ci/cmd/benchcmp -tier list | awk '/^[a-z0-9]+:/ { t = $1; sub(":", "", t) } /^\tvg:/ { print t }'); do
	echo "benchtiers: $tier" >&2
	bench "$tier" aesgcm 0.02s '^Benchmark(Seal|Open)$/AES-128/(16|64|256|1350|4096|16384)/(vaes-avx512|vaes-avx2|aesni-avx|stdlib|boringssl|awslc|openssl)$'
	bench "$tier" chacha20poly1305 0.02s '^Benchmark(Seal|Open)$/(16|64|256|1350|4096|16384)/(avx512|avx2|ssse3|xcrypto|boringssl|awslc|openssl)$'
	bench "$tier" rsa 20x '^Benchmark(Sign|Decrypt)$/(PSS-SHA256|OAEP-SHA256)/(2048|3072|4096)/(ifma|adx|stdlib|boringssl|awslc|openssl)$'
done
