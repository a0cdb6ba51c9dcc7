package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePairs(t *testing.T) {
	got, err := parsePairs([]string{"vg-generic=stdlib, vg-aesni=stdlib", "stdlib", "vg-*=vg-generic"})
	require.NoError(t, err)
	assert.Equal(t, []pairSpec{
		{"vg-generic", "stdlib"},
		{"vg-aesni", "stdlib"},
		{"*", "stdlib"},
		{"vg-*", "vg-generic"},
	}, got)
	assert.Equal(t, "vg-*=vg-generic", got[3].String())

	got, err = parsePairs(nil)
	require.NoError(t, err)
	assert.Empty(t, got)

	for _, bad := range []string{"=stdlib", "vg=", "stdlib=stdlib", "a/b=c", "a=b/c", "vg=std*", "[=stdlib", ","} {
		_, err := parsePairs([]string{bad})
		assert.Error(t, err, "%q", bad)
	}
}

func TestSplitName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want nameParts
	}{
		{"Seal/aes128/1350/vg-generic", nameParts{"Seal/aes128/1350", "vg-generic", ""}},
		{"Seal/aes128/1350/stdlib-2", nameParts{"Seal/aes128/1350", "stdlib", "-2"}},
		{"Seal/aes128/1350/vaes-avx512-16", nameParts{"Seal/aes128/1350", "vaes-avx512", "-16"}},
		{"Sign/size=2048/vg", nameParts{"Sign/size=2048", "vg", ""}},
		{"Open-8", nameParts{"", "Open", "-8"}},
		{"Open", nameParts{"", "Open", ""}},
		{"A/b", nameParts{"A", "b", ""}},
	} {
		assert.Equal(t, tc.want, splitName(tc.name), tc.name)
	}
}

func TestPairBenchmarks(t *testing.T) {
	const p1, p2 = "example.com/aesgcm", "example.com/chacha"
	benches := []benchID{
		{p1, "Seal/16/vg-generic-2"},
		{p1, "Seal/16/vg-aesni-2"},
		{p1, "Seal/16/stdlib-2"},
		{p1, "Seal/64/vg-generic-2"},
		{p1, "Seal/64/stdlib-4"}, // other GOMAXPROCS: not a sibling
		{p1, "Open/16/vg-generic-2"},
		{p1, "Open/16/stdlib-2"},
		{p1, "Open-2"},
		{p2, "Seal/16/vg-generic-2"}, // reference is in another package
		{p2, "Seal/16/xcrypto-2"},
	}

	got := pairBenchmarks(benches, []pairSpec{{"vg-generic", "stdlib"}})
	assert.Equal(t, []pair{
		{Ref: benches[2], Cand: benches[0], RefName: "stdlib"},
		{Ref: benches[6], Cand: benches[5], RefName: "stdlib"},
	}, got)

	got = pairBenchmarks(benches, []pairSpec{{"*", "stdlib"}, {"vg-generic", "xcrypto"}})
	assert.Equal(t, []pair{
		{Ref: benches[2], Cand: benches[0], RefName: "stdlib"},
		{Ref: benches[2], Cand: benches[1], RefName: "stdlib"},
		{Ref: benches[6], Cand: benches[5], RefName: "stdlib"},
		{Ref: benches[9], Cand: benches[8], RefName: "xcrypto"},
	}, got)

	// The same pair selected twice is reported once.
	got = pairBenchmarks(benches, []pairSpec{{"vg-*", "stdlib"}, {"vg-aesni", "stdlib"}})
	assert.Len(t, got, 3)

	assert.Empty(t, pairBenchmarks(benches, []pairSpec{{"vg-generic", "boringssl"}}))
	assert.Equal(t, []string{"vg-generic", "vg-aesni", "stdlib", "Open", "xcrypto"}, lastElems(benches))
}
