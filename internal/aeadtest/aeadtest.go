// Package aeadtest holds the tests both of vg's AEAD modules run against
// their keys, written once: a message checked end to end against a
// reference (for the fuzz targets), the panics of a wiped key and of its
// copies, the panics of zero values, the constant-time test's message, and
// the child process that runs under an invalid VG_CPU_FEATURES, the
// instruction counts on the model. Each module adapts its *AEAD to [Key].
package aeadtest

import (
	"bytes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch/ctgrind"
)

// Encryptor is a module's streaming encryptor.
type Encryptor interface {
	// Encrypt appends the ciphertext of the next chunk to dst.
	Encrypt(dst, plaintext []byte) []byte
	// Finish appends the tag to dst.
	Finish(dst []byte) []byte
}

// Decryptor is a module's verify-first decryptor.
type Decryptor interface {
	// Write adds the next chunk of the sealed message.
	Write(chunk []byte) (int, error)
	// Open checks the whole message and appends its plaintext to dst.
	Open(dst []byte) ([]byte, error)
}

// Key is a module's prepared key as the tests see it: crypto/cipher.AEAD
// and the module's extensions.
type Key struct {
	cipher.AEAD
	// SealGather is the key's SealGather.
	SealGather func(dst, nonce []byte, pieces [][]byte, additionalData []byte) []byte
	// NewEncryptor is the key's NewEncryptor.
	NewEncryptor func(nonce, additionalData []byte) Encryptor
	// NewDecryptor is the key's NewDecryptor.
	NewDecryptor func(nonce, additionalData []byte) Decryptor
	// Wipe is the key's Wipe.
	Wipe func()
	// Backend is the key's Backend.
	Backend func() string
}

// Extended is the API a module's *AEAD has beyond crypto/cipher.AEAD, with
// E and D its Encryptor and Decryptor types.
type Extended[E Encryptor, D Decryptor] interface {
	cipher.AEAD
	// SealGather seals the concatenation of pieces.
	SealGather(dst, nonce []byte, pieces [][]byte, additionalData []byte) []byte
	// NewEncryptor starts a streaming seal.
	NewEncryptor(nonce, additionalData []byte) E
	// NewDecryptor starts a verify-first open.
	NewDecryptor(nonce, additionalData []byte) D
	// Wipe zeroes the key.
	Wipe()
	// Backend names the key's backend.
	Backend() string
}

// KeyOf adapts a module's *AEAD to Key: KeyOf[*E, *D](a).
func KeyOf[E Encryptor, D Decryptor](a Extended[E, D]) Key {
	return Key{
		AEAD:         a,
		SealGather:   a.SealGather,
		NewEncryptor: func(nonce, ad []byte) Encryptor { return a.NewEncryptor(nonce, ad) },
		NewDecryptor: func(nonce, ad []byte) Decryptor { return a.NewDecryptor(nonce, ad) },
		Wipe:         a.Wipe,
		Backend:      a.Backend,
	}
}

// Expand derives n bytes from seed (SHA-256 in counter mode), so that a
// fuzzer's inputs of any length give keys and nonces of the right size.
func Expand(seed []byte, n int) []byte {
	var out []byte
	for i := byte(0); len(out) < n; i++ {
		h := sha256.Sum256(append([]byte{i}, seed...))
		out = append(out, h[:]...)
	}
	return out[:n]
}

// Shape cuts n bytes into pieces whose lengths are the cut bytes (each at
// most what is left), the rest in a last piece.
func Shape(cuts []byte, n int) []int {
	var shape []int
	for _, c := range cuts {
		p := min(int(c), n)
		shape = append(shape, p)
		n -= p
	}
	return append(shape, n)
}

// Pieces cuts text into consecutive pieces of the lengths in shape.
func Pieces(text []byte, shape []int) [][]byte {
	var ps [][]byte
	for _, s := range shape {
		ps = append(ps, text[:s])
		text = text[s:]
	}
	return ps
}

// CheckMessage checks k on one message against want, the reference's
// sealed bytes of pt under nonce and aad: Seal, SealGather (out of place and
// in place) and the Encryptor with the text cut by cuts, Open (out of place
// and in place) and the Decryptor, then the message with bit flip (modulo
// its length) flipped, which Open and the Decryptor must reject without
// releasing plaintext. name labels the failures.
func CheckMessage(t *testing.T, name string, k Key, want, nonce, pt, aad, cuts []byte, flip uint16) {
	t.Helper()
	shape := Shape(cuts, len(pt))
	equal := func(want, got []byte, what string) {
		t.Helper()
		require.True(t, bytes.Equal(want, got), "%s %s (shape %v): want %x, got %x", name, what, shape, want, got)
	}
	equal(want, k.Seal(nil, nonce, pt, aad), "Seal")
	equal(want, k.SealGather(nil, nonce, Pieces(pt, shape), aad), "SealGather")
	buf := make([]byte, len(pt), len(want))
	copy(buf, pt)
	equal(want, k.SealGather(buf[:0], nonce, Pieces(buf, shape), aad), "SealGather in place")
	e := k.NewEncryptor(nonce, aad)
	var out []byte
	for _, p := range Pieces(pt, shape) {
		out = e.Encrypt(out, p)
	}
	equal(want, e.Finish(out), "Encryptor")

	got, err := k.Open(nil, nonce, want, aad)
	require.NoError(t, err, name)
	equal(pt, got, "Open")
	inPlace := bytes.Clone(want)
	got, err = k.Open(inPlace[:0], nonce, inPlace, aad)
	require.NoError(t, err, name)
	equal(pt, got, "Open in place")
	d := k.NewDecryptor(nonce, aad)
	for _, p := range Pieces(want, Shape(cuts, len(want))) {
		_, err := d.Write(p)
		require.NoError(t, err, name)
	}
	got, err = d.Open(nil)
	require.NoError(t, err, name)
	equal(pt, got, "Decryptor")

	bit := int(flip) % (8 * len(want))
	bad := bytes.Clone(want)
	bad[bit/8] ^= 1 << (bit % 8)
	dst := make([]byte, 0, len(bad))
	got, err = k.Open(dst, nonce, bad, aad)
	require.Error(t, err, "%s Open accepted bit %d flipped", name, bit)
	require.Nil(t, got, name)
	equal(make([]byte, len(pt)), dst[:len(pt)], "Open released plaintext")
	d = k.NewDecryptor(nonce, aad)
	_, err = d.Write(bad)
	require.NoError(t, err, name)
	got, err = d.Open(nil)
	require.Error(t, err, "%s Decryptor accepted bit %d flipped", name, bit)
	require.Nil(t, got, name)
}

// CheckWipeCopies checks that wiping k stops cp, a copy of k made before
// (cp := *a), and the Encryptor and Decryptor started before the wipe:
// every use panics with errWiped rather than seal or open under a zeroed
// key.
func CheckWipeCopies(t *testing.T, k, cp Key, errWiped string) {
	t.Helper()
	nonce := make([]byte, k.NonceSize())
	sealed := k.Seal(nil, nonce, []byte("text"), nil)
	enc := k.NewEncryptor(nonce, nil)
	dec := k.NewDecryptor(nonce, nil)
	_, err := dec.Write(sealed)
	require.NoError(t, err)
	k.Wipe()
	for name, call := range map[string]func(){
		"Seal":         func() { cp.Seal(nil, nonce, []byte("text"), nil) },
		"Open":         func() { _, _ = cp.Open(nil, nonce, sealed, nil) },
		"SealGather":   func() { cp.SealGather(nil, nonce, [][]byte{[]byte("text")}, nil) },
		"NewEncryptor": func() { cp.NewEncryptor(nonce, nil) },
		"NewDecryptor": func() { cp.NewDecryptor(nonce, nil) },
		"Encrypt":      func() { enc.Encrypt(nil, []byte("text")) },
		"Finish":       func() { enc.Finish(nil) },
		"Decryptor":    func() { _, _ = dec.Open(nil) },
		"original":     func() { k.Seal(nil, nonce, []byte("text"), nil) },
	} {
		assert.PanicsWithValue(t, errWiped, call, name)
	}
}

// CheckZeroKey checks that every method of zero (a Key over a zero AEAD
// value) panics with msg, and that the same methods of made do not.
func CheckZeroKey(t *testing.T, zero, made Key, msg string) {
	t.Helper()
	calls := func(k Key) map[string]func() {
		nonce := make([]byte, 12)
		if k.AEAD == made.AEAD {
			nonce = make([]byte, made.NonceSize())
		}
		sealed := make([]byte, 32)
		return map[string]func(){
			"Seal":         func() { k.Seal(nil, nonce, []byte("text"), nil) },
			"Open":         func() { _, _ = k.Open(nil, nonce, sealed, nil) },
			"SealGather":   func() { k.SealGather(nil, nonce, [][]byte{[]byte("text")}, nil) },
			"NewEncryptor": func() { k.NewEncryptor(nonce, nil) },
			"NewDecryptor": func() { k.NewDecryptor(nonce, nil) },
			"NonceSize":    func() { k.NonceSize() },
			"Overhead":     func() { k.Overhead() },
			"Backend":      func() { k.Backend() },
			"Wipe":         func() { k.Wipe() },
		}
	}
	for name, call := range calls(zero) {
		assert.PanicsWithValue(t, msg, call, name)
	}
	for name, call := range calls(made) {
		if name != "Wipe" {
			assert.NotPanics(t, call, name)
		}
	}
}

// CheckZeroStream checks that the methods of a zero Encryptor and a zero
// Decryptor panic with their messages.
func CheckZeroStream(t *testing.T, e Encryptor, encMsg string, d Decryptor, decMsg string) {
	t.Helper()
	assert.PanicsWithValue(t, encMsg, func() { e.Encrypt(nil, []byte("text")) })
	assert.PanicsWithValue(t, encMsg, func() { e.Finish(nil) })
	assert.PanicsWithValue(t, decMsg, func() { _, _ = d.Write([]byte("text")) })
	assert.PanicsWithValue(t, decMsg, func() { _, _ = d.Open(nil) })
}

// InChild runs test (the name of the calling test) again in a child
// process of the test binary with the environment variable env set to
// value besides marker=1, and reports whether this is the child (then the
// caller does its checks and returns). In the parent it checks that the
// child passed and that warning stands exactly once in its standard error.
func InChild(t *testing.T, test, marker, env, value, warning string) bool {
	t.Helper()
	if os.Getenv(marker) == "1" {
		return true
	}
	cmd := SelfCommand("-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), marker+"=1", env+"="+value)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "child:\n%s\n%s", out, stderr.String())
	assert.Contains(t, string(out), "PASS")
	assert.Equal(t, 1, strings.Count(stderr.String(), warning), "warned once:\n%s", stderr.String())
	return false
}

// Sealer is a reference AEAD's Seal.
type Sealer interface {
	// Seal appends the sealed plaintext to dst.
	Seal(dst, nonce, plaintext, additionalData []byte) []byte
}

// CheckSecretMessage is the constant-time test's message (the CTGrind
// tests, run under valgrind's memcheck by ci/cmd/ctgrind): pt, marked
// undefined, sealed with Seal, SealGather (two pieces) and the Encryptor
// against ref's Seal, then ref's output opened with Open and the Decryptor,
// each result marked defined before it is compared, and a flipped tag bit
// rejected by the verdict alone. Under memcheck a branch or an address that
// depends on pt or on the key (which the caller marks) fails the run.
func CheckSecretMessage(t *testing.T, k Key, ref Sealer, nonce, pt, aad []byte) {
	t.Helper()
	n := len(pt)
	want := ref.Seal(nil, nonce, pt, aad)
	secret := append([]byte(nil), pt...)
	ctgrind.UndefinedBytes(secret)
	check := func(what string, got []byte) {
		ctgrind.DefinedBytes(got)
		require.Equal(t, want, got, "%s n=%d", what, n)
	}
	check("Seal", k.Seal(nil, nonce, secret, aad))
	check("SealGather", k.SealGather(nil, nonce, [][]byte{secret[:n/2], secret[n/2:]}, aad))
	e := k.NewEncryptor(nonce, aad)
	check("Encryptor", e.Finish(e.Encrypt(e.Encrypt(nil, secret[:n/3]), secret[n/3:])))
	ctgrind.DefinedBytes(secret)

	opened, err := k.Open(nil, nonce, want, aad)
	require.NoError(t, err)
	ctgrind.DefinedBytes(opened)
	require.True(t, bytes.Equal(pt, opened), "Open n=%d", n)
	d := k.NewDecryptor(nonce, aad)
	_, err = d.Write(want)
	require.NoError(t, err)
	opened, err = d.Open(nil)
	require.NoError(t, err)
	ctgrind.DefinedBytes(opened)
	require.True(t, bytes.Equal(pt, opened), "Decryptor n=%d", n)
	// A flipped tag bit: the verdict, not the data, decides.
	bad := append([]byte(nil), want...)
	bad[len(bad)-1] ^= 1
	_, err = k.Open(nil, nonce, bad, aad)
	require.Error(t, err)
}

// SelfCommand runs the test binary again with args: under the emulator
// VG_TEST_EMULATOR names when it is set (ci/test runs the arm64 tests under
// qemu-aarch64, and the kernel cannot start an arm64 binary by itself).
func SelfCommand(args ...string) *exec.Cmd {
	if emu := os.Getenv("VG_TEST_EMULATOR"); emu != "" {
		return exec.Command(emu, append([]string{os.Args[0]}, args...)...)
	}
	return exec.Command(os.Args[0], args...)
}

// GOARCHBackends is what an algorithm module's TestDefaultBackendPerGOARCH
// pins, for CheckGOARCHBackends.
type GOARCHBackends struct {
	// Names are the module's Backends() by name, and Default the backend
	// of a key prepared without options, in this build.
	Names   []string
	Default string
	// AMD64 lists the backends of the amd64 build; StdlibGOARCHes the
	// GOARCHes whose build has "stdlib" (the test's own list), and
	// Declared where cpufeat declares it built.
	AMD64          []string
	StdlibGOARCHes []string
	Declared       []string
	// StdEnabled says whether the feature "stdlib" requires is enabled;
	// Purego whether this is a purego build.
	StdEnabled bool
	Purego     bool
}

// CheckGOARCHBackends checks the backends of this build and the default
// one: on amd64 vg's assembly (never stdlib); on the stdlib GOARCHes
// stdlib then generic, stdlib the default where its feature is enabled;
// elsewhere, and under purego, generic alone.
func CheckGOARCHBackends(t *testing.T, c GOARCHBackends) {
	t.Helper()
	assert.Equal(t, c.StdlibGOARCHes, c.Declared, "cpufeat's declaration says where stdlib is built")
	switch {
	case c.Purego:
		assert.Equal(t, []string{"generic"}, c.Names)
	case runtime.GOARCH == "amd64":
		assert.Equal(t, c.AMD64, c.Names)
		assert.NotEqual(t, "stdlib", c.Default)
	case slices.Contains(c.StdlibGOARCHes, runtime.GOARCH):
		assert.Equal(t, []string{"stdlib", "generic"}, c.Names)
		want := "generic"
		if c.StdEnabled {
			want = "stdlib"
		}
		assert.Equal(t, want, c.Default)
	default:
		assert.Equal(t, []string{"generic"}, c.Names)
	}
	t.Logf("GOARCH %s: backends %v, default %s", runtime.GOARCH, c.Names, c.Default)
}

// CheckFewerInstructions counts, with count, the instructions each
// assembly backend of backends executes (a backend VG_CPU_FEATURES leaves
// out is logged and not counted), and checks that the first backend of
// each pair, the wider, executes fewer than the second where both were
// counted; it skips the test when no pair was (VG_CPU_FEATURES enables
// fewer than two assembly backends). what names the operation counted,
// for the log and the messages.
func CheckFewerInstructions(t *testing.T, backends []cpufeat.BackendInfo, pairs [][2]string, what string, count func(backend string) uint64) {
	t.Helper()
	counts := map[string]uint64{}
	for _, b := range backends {
		switch {
		case b.Name == cpufeat.GenericBackend:
		case !b.Available:
			t.Logf("%s: not counted: VG_CPU_FEATURES leaves out some of %s", b.Name, b.Requires)
		default:
			counts[b.Name] = count(b.Name)
			t.Logf("%s: %d instructions per %s", b.Name, counts[b.Name], what)
		}
	}
	compared := 0
	for _, p := range pairs {
		wide, narrow := counts[p[0]], counts[p[1]]
		if wide == 0 || narrow == 0 {
			continue
		}
		assert.Less(t, wide, narrow, "%s against %s, per %s", p[0], p[1], what)
		compared++
	}
	if compared == 0 {
		t.Skipf("no pair of backends to compare: VG_CPU_FEATURES=%q enables fewer than two assembly backends", os.Getenv("VG_CPU_FEATURES"))
	}
}

// Unhex decodes s, hexadecimal with spaces, newlines or colons between
// bytes as the RFCs print their vectors, and fails t on anything else.
func Unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(strings.ReplaceAll(s, ":", " ")), ""))
	require.NoError(t, err)
	return b
}

// A FuzzInput is one input of an AEAD module's FuzzAgreement.
type FuzzInput struct {
	// Variant is the module's choice: the AES key size, or XChaCha20.
	Variant uint8
	// KeySeed and NonceSeed expand to the key and nonce (Expand).
	KeySeed, NonceSeed []byte
	// AAD is the additional data and Text the plaintext.
	AAD, Text []byte
	// Cuts cut the text into pieces (Shape).
	Cuts []byte
	// Flip is the bit of the sealed message to flip (CheckMessage).
	Flip uint16
}

// FuzzAgreement seeds f and runs check on the fuzzer's inputs with
// backends. A module's FuzzAgreement passes its backends but the portable
// one (AssemblyBackends) and maxLen 0; its FuzzAgreementGeneric passes the
// portable one alone and a maxLen that cuts the text and additional data
// to that many bytes, since its Go code runs many times slower under the
// fuzzer's coverage counters. An empty backends (a build with the
// portable backend alone) skips every input.
func FuzzAgreement(f *testing.F, backends []string, maxLen int, check func(t *testing.T, backends []string, in FuzzInput)) {
	f.Add(uint8(0), []byte("k"), []byte("n"), []byte("header-13-by"), bytes.Repeat([]byte{1}, 17), []byte{16}, uint16(3))
	f.Add(uint8(1), []byte("key"), []byte("nonce"), []byte{}, []byte{}, []byte{}, uint16(0))
	f.Add(uint8(2), []byte("k2"), []byte("n2"), bytes.Repeat([]byte{7}, 40), bytes.Repeat([]byte{2}, 65), []byte{64}, uint16(100))
	f.Add(uint8(3), []byte("k3"), []byte("n3"), []byte("aad"), bytes.Repeat([]byte{3}, 300), []byte{1, 5, 100}, uint16(9999))
	f.Add(uint8(4), []byte("k4"), []byte("n4"), bytes.Repeat([]byte{8}, 13), bytes.Repeat([]byte{5}, 320), []byte{64, 1}, uint16(320))
	f.Add(uint8(5), []byte("k5"), []byte("n5"), []byte("a"), bytes.Repeat([]byte{4}, 513), []byte{255, 0, 128}, uint16(513))
	f.Add(uint8(6), []byte("k6"), []byte("n6"), []byte("ab"), bytes.Repeat([]byte{6}, 1350), []byte{255, 0, 128}, uint16(1350))
	f.Fuzz(func(t *testing.T, variant uint8, keySeed, nonceSeed, aad, text, cuts []byte, flip uint16) {
		if len(backends) == 0 {
			t.Skip("only the portable backend here: FuzzAgreementGeneric covers it")
		}
		if maxLen > 0 {
			aad, text = aad[:min(len(aad), maxLen)], text[:min(len(text), maxLen)]
		}
		check(t, backends, FuzzInput{variant, keySeed, nonceSeed, aad, text, cuts, flip})
	})
}

// AssemblyBackends returns names without the portable backend: the
// backends a module's FuzzAgreement runs.
func AssemblyBackends(names []string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == cpufeat.GenericBackend })
}
