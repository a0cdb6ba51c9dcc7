// Package agree checks that several implementations of one AEAD (vg's
// backends, and a reference) produce identical output on the same random
// inputs, in every calling shape: every plaintext length from 0 to 1100 and
// larger ones, several additional-data lengths, in place and out of place, at
// unaligned offsets, and, for implementations that have them, gather seals
// from lists of slices and streaming encryption, cut into the shapes that
// stress block boundaries. Every implementation must also open the common
// ciphertext, and reject it with one bit of the tag or the ciphertext flipped.
//
// The first disagreement stops the run and is reported with its exact input
// ([Disagreement]). Inputs come from a seeded deterministic generator: the
// seed is printed, and VG_AGREE_SEED replays it.
//
// [Run] is for tests; [Check] returns the result instead of failing a test.
package agree

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Impl is one named implementation of an AEAD.
type Impl struct {
	// Name identifies the implementation in reports (a backend name).
	Name string
	// New returns the AEAD for key with the given nonce size in bytes.
	New func(key []byte, nonceSize int) (cipher.AEAD, error)
	// SealGather, if not nil, seals the concatenation of plaintext, as
	// aead.Seal(dst, nonce, concat(plaintext), additionalData) would. aead is
	// what New returned. When nil and the AEAD implements [GatherSealer],
	// that method is used.
	SealGather func(aead cipher.AEAD, dst, nonce []byte, plaintext [][]byte, additionalData []byte) []byte
	// NewEncryptor, if not nil, starts a streaming encryption with aead
	// (what New returned).
	NewEncryptor func(aead cipher.AEAD, nonce, additionalData []byte) (Encryptor, error)
}

// GatherSealer is an AEAD with a gather seal: SealGather appends to dst the
// sealing of the concatenation of plaintext.
type GatherSealer interface {
	// SealGather is Seal of the concatenation of plaintext.
	SealGather(dst, nonce []byte, plaintext [][]byte, additionalData []byte) []byte
}

// Encryptor is a streaming encryption: the plaintext arrives in Writes of any
// length, and Finish appends ciphertext || tag to dst, the same bytes Seal
// gives for the concatenated plaintext.
type Encryptor interface {
	// Write takes the next piece of plaintext; it returns len(p) and nil.
	Write(p []byte) (int, error)
	// Finish appends the whole ciphertext and the tag to dst.
	Finish(dst []byte) []byte
}

// Config says which inputs to try. The zero value of every field but KeySizes
// has a default.
type Config struct {
	// KeySizes are the key lengths in bytes; at least one is required.
	KeySizes []int
	// NonceSizes are the nonce lengths in bytes (default 12).
	NonceSizes []int
	// MaxLen: every plaintext length from 0 to MaxLen is tried (default
	// 1100; under Short, the lengths above 300 are sampled).
	MaxLen int
	// LargeLens are further plaintext lengths (default [DefaultLargeLens]).
	LargeLens []int
	// ADLens are the additional-data lengths, used in turn (default
	// [DefaultADLens]).
	ADLens []int
	// Seed seeds the input generator; 0 means VG_AGREE_SEED if set, else
	// the clock.
	Seed uint64
	// Offsets is the number of byte offsets (0..Offsets-1) at which the
	// input and output buffers are placed, one drawn at random per case
	// (default 16; 64 reaches every position in a zmm register's span).
	Offsets int
	// Short tries one slice shape per length, in turn, instead of every
	// shape, and fewer lengths. [Run] sets it under testing.Short().
	Short bool
}

// DefaultLargeLens are the default lengths above 1100: around the TLS record
// size and the bulk loops, and 16 KiB (a full TLS record) plus one byte.
var DefaultLargeLens = []int{1359, 1360, 2047, 2048, 4095, 4096, 4097, 8192, 16384, 16385}

// DefaultADLens are the default additional-data lengths: none, the TLS 1.2
// (13) and a typical TLS 1.3 (5) header, around a block, and several blocks.
var DefaultADLens = []int{13, 0, 5, 1, 16, 17, 31, 64, 100, 300}

// SeedEnv is the variable that replays a run's seed.
const SeedEnv = "VG_AGREE_SEED"

// Shape cuts a plaintext length into the lengths of the slices given to a
// gather seal or written to a stream, in order; their sum is n.
type Shape struct {
	// Name is the shape in reports, such as "[1,n-1]".
	Name string
	// Pieces returns the slice lengths for a plaintext of n bytes (rng for
	// the random shapes).
	Pieces func(n int, rng *rand.Rand) []int
}

// split returns [k, n-k], k clamped to n.
func split(k int) func(int, *rand.Rand) []int {
	return func(n int, _ *rand.Rand) []int { k := min(k, n); return []int{k, n - k} }
}

// Shapes are the slice shapes tried.
var Shapes = []Shape{
	{"[n]", func(n int, _ *rand.Rand) []int { return []int{n} }},
	{"[1,n-1]", split(1)},
	{"[n-1,1]", func(n int, _ *rand.Rand) []int { k := max(n-1, 0); return []int{k, n - k} }},
	{"[5,n-5]", split(5)},
	{"[100,n-100]", split(100)},
	{"thirds", func(n int, _ *rand.Rand) []int { return []int{n / 3, n / 3, n - 2*(n/3)} }},
	{"[0,n,0]", func(n int, _ *rand.Rand) []int { return []int{0, n, 0} }},
	{"[15,1,n-16]", func(n int, _ *rand.Rand) []int {
		a := min(15, n)
		b := min(1, n-a)
		return []int{a, b, n - a - b}
	}},
	{"[3,16,n-19]", func(n int, _ *rand.Rand) []int {
		a := min(3, n)
		b := min(16, n-a)
		return []int{a, b, n - a - b}
	}},
	{"tiny 1..7", func(n int, rng *rand.Rand) []int {
		var ps []int
		for n > 0 {
			k := min(1+rng.IntN(7), n)
			ps = append(ps, k)
			n -= k
		}
		return ps
	}},
}

// Case is the input of one comparison.
type Case struct {
	// KeySize, NonceSize, PlaintextLen and ADLen are the lengths, in
	// bytes, of the key, the nonce, the plaintext and the additional data.
	KeySize      int
	NonceSize    int
	PlaintextLen int
	ADLen        int
	// Shape is the slice shape of a gather seal or a stream, with Pieces
	// the slice lengths; empty for Seal and Open.
	Shape  string
	Pieces []int
	// InOffset and OutOffset are the offsets of the input and of dst from
	// the start of their (aligned) allocations.
	InOffset, OutOffset int
	// InPlace says dst started where the input does.
	InPlace bool
}

// String describes the case in a disagreement's message.
func (c Case) String() string {
	s := fmt.Sprintf("key size %d, nonce size %d, plaintext length %d, AD length %d", c.KeySize, c.NonceSize, c.PlaintextLen, c.ADLen)
	if c.Shape != "" {
		s += fmt.Sprintf(", shape %s = %s", c.Shape, pieces(c.Pieces))
	}
	if c.InPlace {
		s += fmt.Sprintf(", in place at offset %d", c.InOffset)
	} else {
		s += fmt.Sprintf(", out of place, input offset %d, output offset %d", c.InOffset, c.OutOffset)
	}
	return s
}

func pieces(ps []int) string {
	if len(ps) > 12 {
		return fmt.Sprintf("%d slices %v...", len(ps), ps[:12])
	}
	return fmt.Sprint(ps)
}

// Disagreement is the first difference found.
type Disagreement struct {
	// Op is what was compared: "Seal", "SealGather", "Encryptor", "Open",
	// "Open tampered".
	Op string
	// Impl disagrees with Ref, the first implementation's Seal.
	Impl, Ref string
	// Case is the input on which they differ.
	Case Case
	// Seed is the run's seed, which replays the run through [SeedEnv].
	Seed uint64
	// Detail says how the outputs differ.
	Detail string
}

// Error describes the disagreement with its input and how to replay it.
func (d *Disagreement) Error() string {
	return fmt.Sprintf("agree: %s of %s disagrees with Seal of %s: %s; input: %s (seed %d, replay with %s=%d)",
		d.Op, d.Impl, d.Ref, d.Detail, d.Case, d.Seed, SeedEnv, d.Seed)
}

// Report summarizes a run.
type Report struct {
	// Seed is the run's seed (see [SeedEnv]).
	Seed uint64
	// Impls names the implementations compared, the reference first.
	Impls []string
	// Comparisons counts the outputs compared.
	Comparisons int
	// Gather and Stream name the implementations whose gather seal and
	// encryptor were exercised.
	Gather, Stream []string
}

// String summarizes the run in one line.
func (r Report) String() string {
	return fmt.Sprintf("%d implementations (%s) agree on %d comparisons (gather: %s; stream: %s; seed %d)",
		len(r.Impls), strings.Join(r.Impls, ", "), r.Comparisons, orNone(r.Gather), orNone(r.Stream), r.Seed)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// Run runs [Check] with cfg.Short set under testing.Short(), logs the seed
// and the report, and fails tb on the first disagreement or error.
func Run(tb testing.TB, cfg Config, impls ...Impl) Report {
	tb.Helper()
	if testing.Short() {
		cfg.Short = true
	}
	if cfg.Seed == 0 {
		seed, err := seedFromEnv()
		if err != nil {
			tb.Fatal(err)
			return Report{}
		}
		cfg.Seed = seed
	}
	tb.Logf("agree: seed %d (replay with %s=%d)", cfg.Seed, SeedEnv, cfg.Seed)
	r, err := Check(cfg, impls...)
	if err != nil {
		tb.Fatal(err)
		return r
	}
	tb.Log("agree: " + r.String())
	return r
}

func seedFromEnv() (uint64, error) {
	if s := os.Getenv(SeedEnv); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil || seed == 0 {
			return 0, fmt.Errorf("agree: %s=%q: want a non-zero decimal integer", SeedEnv, s)
		}
		return seed, nil
	}
	return uint64(time.Now().UnixNano()) | 1, nil
}

// instance is one implementation prepared with one key.
type instance struct {
	impl   Impl
	aead   cipher.AEAD
	gather func(dst, nonce []byte, pt [][]byte, ad []byte) []byte
}

// Check runs every comparison cfg describes and returns the first
// disagreement as a [*Disagreement] error. Other errors (a bad Config, an
// implementation that cannot be constructed) are plain errors.
func Check(cfg Config, impls ...Impl) (Report, error) {
	if len(impls) == 0 {
		return Report{}, errors.New("agree: no implementations")
	}
	if len(cfg.KeySizes) == 0 {
		return Report{}, errors.New("agree: Config.KeySizes is empty")
	}
	seen := make(map[string]bool)
	for _, im := range impls {
		if im.Name == "" || seen[im.Name] || im.New == nil {
			return Report{}, fmt.Errorf("agree: implementation %q: names must be non-empty and unique, New must be set", im.Name)
		}
		seen[im.Name] = true
	}
	if cfg.Seed == 0 {
		seed, err := seedFromEnv()
		if err != nil {
			return Report{}, err
		}
		cfg.Seed = seed
	}
	if len(cfg.NonceSizes) == 0 {
		cfg.NonceSizes = []int{12}
	}
	if cfg.MaxLen == 0 {
		cfg.MaxLen = 1100
	}
	if cfg.LargeLens == nil {
		cfg.LargeLens = DefaultLargeLens
	}
	if len(cfg.ADLens) == 0 {
		cfg.ADLens = DefaultADLens
	}
	r := &runner{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))}
	r.report.Seed = cfg.Seed
	for _, im := range impls {
		r.report.Impls = append(r.report.Impls, im.Name)
	}
	for _, ks := range cfg.KeySizes {
		for _, ns := range cfg.NonceSizes {
			if err := r.sweep(impls, ks, ns); err != nil {
				return r.report, err
			}
		}
	}
	return r.report, nil
}

type runner struct {
	cfg    Config
	rng    *rand.Rand
	report Report
}

func (r *runner) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.rng.Uint32())
	}
	return b
}

func (r *runner) offsets() int {
	if r.cfg.Offsets > 0 {
		return r.cfg.Offsets
	}
	return 16
}

func (r *runner) lengths() []int {
	var ls []int
	for n := 0; n <= r.cfg.MaxLen; n++ {
		if r.cfg.Short && n > 300 && n%16 != 15 && n%16 != 0 && n%16 != 1 && n%29 != 0 {
			continue
		}
		ls = append(ls, n)
	}
	return append(ls, r.cfg.LargeLens...)
}

// sweep runs every length for one key size and nonce size.
func (r *runner) sweep(impls []Impl, keySize, nonceSize int) error {
	key := r.bytes(keySize)
	insts := make([]instance, len(impls))
	for i, im := range impls {
		a, err := im.New(key, nonceSize)
		if err != nil {
			return fmt.Errorf("agree: %s: New with a %d-byte key and a %d-byte nonce: %w", im.Name, keySize, nonceSize, err)
		}
		in := instance{impl: im, aead: a}
		if im.SealGather != nil {
			in.gather = func(dst, nonce []byte, pt [][]byte, ad []byte) []byte { return im.SealGather(a, dst, nonce, pt, ad) }
		} else if g, ok := a.(GatherSealer); ok {
			in.gather = g.SealGather
		}
		insts[i] = in
		if keySize == r.cfg.KeySizes[0] && nonceSize == r.cfg.NonceSizes[0] {
			if in.gather != nil {
				r.report.Gather = append(r.report.Gather, im.Name)
			}
			if im.NewEncryptor != nil {
				r.report.Stream = append(r.report.Stream, im.Name)
			}
		}
	}
	for i, n := range r.lengths() {
		c := Case{KeySize: keySize, NonceSize: nonceSize, PlaintextLen: n, ADLen: r.cfg.ADLens[i%len(r.cfg.ADLens)]}
		shapes := Shapes
		if r.cfg.Short {
			shapes = Shapes[i%len(Shapes) : i%len(Shapes)+1]
		}
		if err := r.one(insts, c, shapes); err != nil {
			return err
		}
	}
	return nil
}

// one compares every implementation on one plaintext.
func (r *runner) one(insts []instance, c Case, shapes []Shape) error {
	nonce, pt, ad := r.bytes(c.NonceSize), r.bytes(c.PlaintextLen), r.bytes(c.ADLen)
	ref := insts[0]
	want, err := call(func() []byte { return ref.aead.Seal(nil, nonce, pt, ad) })
	if err != nil {
		return r.disagree("Seal", ref, ref, c, err.Error())
	}
	overhead := len(want) - len(pt)
	check := func(op string, in instance, c Case, got []byte, err error) error {
		r.report.Comparisons++
		if err != nil {
			return r.disagree(op, in, ref, c, err.Error())
		}
		if d := diff(got, want); d != "" {
			return r.disagree(op, in, ref, c, d)
		}
		return nil
	}
	for _, in := range insts {
		// Out of place, at unaligned offsets.
		oc := c
		oc.InOffset, oc.OutOffset = r.rng.IntN(r.offsets()), r.rng.IntN(r.offsets())
		src := make([]byte, oc.InOffset+len(pt))
		copy(src[oc.InOffset:], pt)
		out := make([]byte, oc.OutOffset+len(want))
		got, err := call(func() []byte { return in.aead.Seal(out[oc.OutOffset:oc.OutOffset], nonce, src[oc.InOffset:], ad) })
		if err := check("Seal", in, oc, got, err); err != nil {
			return err
		}
		// In place.
		ic := c
		ic.InPlace = true
		ic.InOffset = r.rng.IntN(r.offsets())
		ic.OutOffset = ic.InOffset
		buf := make([]byte, ic.InOffset+len(want))
		copy(buf[ic.InOffset:], pt)
		got, err = call(func() []byte {
			return in.aead.Seal(buf[ic.InOffset:ic.InOffset], nonce, buf[ic.InOffset:ic.InOffset+len(pt)], ad)
		})
		if err := check("Seal", in, ic, got, err); err != nil {
			return err
		}
		// Gather seal and stream, in each shape.
		for _, sh := range shapes {
			sc := c
			sc.Shape = sh.Name
			sc.Pieces = sh.Pieces(len(pt), r.rng)
			sc.InOffset, sc.OutOffset = r.rng.IntN(16), r.rng.IntN(16)
			src := make([]byte, sc.InOffset+len(pt))
			copy(src[sc.InOffset:], pt)
			slices := cut(src[sc.InOffset:], sc.Pieces)
			if in.gather != nil {
				out := make([]byte, sc.OutOffset+len(want))
				got, err := call(func() []byte { return in.gather(out[sc.OutOffset:sc.OutOffset], nonce, slices, ad) })
				if err := check("SealGather", in, sc, got, err); err != nil {
					return err
				}
			}
			if in.impl.NewEncryptor != nil {
				out := make([]byte, sc.OutOffset+len(want))
				got, err := call(func() []byte { return stream(in, out[sc.OutOffset:sc.OutOffset], nonce, ad, slices) })
				if err := check("Encryptor", in, sc, got, err); err != nil {
					return err
				}
			}
		}
		// Open of the common ciphertext, out of place and in place.
		oc.InOffset, oc.OutOffset = r.rng.IntN(r.offsets()), r.rng.IntN(r.offsets())
		ctBuf := make([]byte, oc.InOffset+len(want))
		copy(ctBuf[oc.InOffset:], want)
		ptBuf := make([]byte, oc.OutOffset+len(pt))
		if err := r.open(in, ref, oc, nonce, ad, ptBuf[oc.OutOffset:oc.OutOffset], ctBuf[oc.InOffset:], pt); err != nil {
			return err
		}
		ic.InOffset = r.rng.IntN(r.offsets())
		ic.OutOffset = ic.InOffset
		ctBuf = make([]byte, ic.InOffset+len(want))
		copy(ctBuf[ic.InOffset:], want)
		if err := r.open(in, ref, ic, nonce, ad, ctBuf[ic.InOffset:ic.InOffset], ctBuf[ic.InOffset:], pt); err != nil {
			return err
		}
		// One flipped bit in the tag, then (when there is one) in the
		// ciphertext body.
		var positions []int
		if overhead > 0 {
			positions = append(positions, len(pt)+r.rng.IntN(overhead))
		}
		if len(pt) > 0 {
			positions = append(positions, r.rng.IntN(len(pt)))
		}
		for _, pos := range positions {
			bad := bytes.Clone(want)
			bit := byte(1) << r.rng.IntN(8)
			bad[pos] ^= bit
			r.report.Comparisons++
			var openErr error
			_, err := call(func() []byte {
				_, openErr = in.aead.Open(nil, nonce, bad, ad)
				return nil
			})
			if err != nil {
				return r.disagree("Open tampered", in, ref, c, err.Error())
			}
			if openErr == nil {
				return r.disagree("Open tampered", in, ref, c, fmt.Sprintf("accepted the common ciphertext with byte %d xor %#02x (of %d bytes)", pos, bit, len(want)))
			}
		}
	}
	return nil
}

// open checks that in opens ct into dst and gets want.
func (r *runner) open(in, ref instance, c Case, nonce, ad, dst, ct, want []byte) error {
	r.report.Comparisons++
	var openErr error
	got, err := call(func() []byte {
		var out []byte
		out, openErr = in.aead.Open(dst, nonce, ct, ad)
		return out
	})
	if err == nil && openErr != nil {
		err = fmt.Errorf("rejected the common ciphertext: %w", openErr)
	}
	if err != nil {
		return r.disagree("Open", in, ref, c, err.Error())
	}
	if d := diff(got, want); d != "" {
		return r.disagree("Open", in, ref, c, "plaintext "+d)
	}
	return nil
}

func (r *runner) disagree(op string, in, ref instance, c Case, detail string) error {
	return &Disagreement{Op: op, Impl: in.impl.Name, Ref: ref.impl.Name, Case: c, Seed: r.cfg.Seed, Detail: detail}
}

// stream encrypts pieces through in's Encryptor and appends the result to dst.
func stream(in instance, dst, nonce, ad []byte, pieces [][]byte) []byte {
	enc, err := in.impl.NewEncryptor(in.aead, nonce, ad)
	if err != nil {
		panic(fmt.Sprintf("NewEncryptor: %v", err))
	}
	for i, p := range pieces {
		n, err := enc.Write(p)
		if err != nil || n != len(p) {
			panic(fmt.Sprintf("Write of slice %d (%d bytes) = %d, %v", i, len(p), n, err))
		}
	}
	return enc.Finish(dst)
}

// cut splits b into consecutive slices of the given lengths (each capped at
// its length, so that writing past it cannot reach the next).
func cut(b []byte, lens []int) [][]byte {
	out := make([][]byte, len(lens))
	off := 0
	for i, l := range lens {
		out[i] = b[off : off+l : off+l]
		off += l
	}
	return out
}

// call runs f and turns a panic into an error.
func call(f func() []byte) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f(), nil
}

// diff describes how got differs from want, or returns "".
func diff(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("first difference at byte %d of %d: %#02x, want %#02x", i, len(want), got[i], want[i])
		}
	}
	return fmt.Sprintf("length %d, want %d", len(got), len(want))
}
