package ctgrind

import (
	"crypto/subtle"
	"os"
	"testing"
)

// The seeded leaks: Go code that is not constant time, each caught by
// ci/cmd/ctgrind (its TestSeededLeaksCaught runs them under memcheck with
// CTGRIND_SEED=1 and requires the reports), beside a constant-time twin
// that must pass.

var sink int

// sbox is a public table; looking it up at a secret index leaks the index
// through the cache.
var sbox = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i*7 + 3)
	}
	return
}()

// branchOnKeyByte counts down a key byte: a loop whose trip count is the
// secret.
//
//go:noinline
func branchOnKeyByte(key []byte) int {
	n := 0
	for i := 0; i < int(key[0]&7); i++ {
		n += i
	}
	return n
}

// tableLoad loads sbox at the secret index key[0].
//
//go:noinline
func tableLoad(key []byte) int { return int(sbox[key[0]]) }

// tableScan is tableLoad in constant time: every entry read, the wanted one
// kept with a mask.
//
//go:noinline
func tableScan(key []byte) int {
	v := 0
	for i := range sbox {
		v |= int(sbox[i]) & -subtle.ConstantTimeByteEq(byte(i), key[0])
	}
	return v
}

func seededKey(t *testing.T) []byte {
	if os.Getenv("CTGRIND_SEED") != "1" {
		t.Skip("a seeded leak: ci/cmd/ctgrind's tests run it with CTGRIND_SEED=1")
	}
	key := []byte("a secret key 16b")
	UndefinedBytes(key)
	return key
}

func TestCTGrindSeededBranchOnKeyByte(t *testing.T) {
	key := seededKey(t)
	sink = branchOnKeyByte(key)
	DefinedBytes(key)
	Defined(unsafePointer(&sink), 8)
}

func TestCTGrindSeededTableLoad(t *testing.T) {
	key := seededKey(t)
	sink = tableLoad(key)
	DefinedBytes(key)
	Defined(unsafePointer(&sink), 8)
}

func TestCTGrindTableScanPasses(t *testing.T) {
	key := []byte("a secret key 16b")
	UndefinedBytes(key)
	v := tableScan(key)
	Defined(unsafePointer(&v), 8)
	DefinedBytes(key)
	if v != int(sbox[key[0]]) {
		t.Fatalf("tableScan = %d, want %d", v, sbox[key[0]])
	}
}
