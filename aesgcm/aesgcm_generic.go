package aesgcm

import (
	"crypto/subtle"
	"github.com/vgcrypto/vg/stackscratch"
	"math/bits"
)

// keyGeneric is the portable, constant-time backend "generic": bitsliced AES
// four blocks at a time (aes_ct64.go) and GHASH by integer multiplication
// with H^1..H^4 for four-block aggregation (ghash_ct.go).
type keyGeneric struct {
	aes aesCT
	gh  ghashKey
	st  keyState
}

// state returns the AEAD state the key carries.
func (k *keyGeneric) state() *keyState { return &k.st }

func newKeyGeneric(key []byte) keyImpl {
	k := new(keyGeneric)
	k.init(key)
	return k
}

// init expands key into k's round keys and GHASH key powers.
func (k *keyGeneric) init(key []byte) {
	k.aes.expandKey(key)
	var zero, h [64]byte
	k.aes.encryptBlocks(&h, &zero)
	k.gh.init(loadElem(h[:16]))
	stackscratch.Wipe(h[:])
}

// wipe zeroes the round keys and the powers of H.
func (k *keyGeneric) wipe() {
	k.aes.wipe()
	k.gh.wipe()
}

func (k *keyGeneric) ghashNonce(nonce []byte) counter {
	var y ghashElem
	k.gh.update(&y, nonce)
	k.gh.updateLengths(&y, 0, uint64(len(nonce)))
	var j0 [16]byte
	y.store(j0[:])
	return counterOf(&j0)
}

// splitCounter returns J0's first 12 bytes as little-endian words and its
// 32-bit counter.
func splitCounter(j0 counter) (lo, hi uint64, ctr uint32) {
	return j0.lo, j0.hi & 0xffffffff, bits.ReverseBytes32(uint32(j0.hi >> 32))
}

// crypt is seal (decrypt false) or open (decrypt true). The first AES pass
// encrypts J0 and the first three counter blocks together, so a message of
// up to 48 bytes costs one pass; then each pass makes 64 bytes of keystream,
// and GHASH takes the ciphertext of each pass as it is produced (before it
// is overwritten, when opening in place).
func (k *keyGeneric) crypt(out, in, aad []byte, j0 counter, decrypt bool) [16]byte {
	var y ghashElem
	k.gh.update(&y, aad)
	lo, hi, ctr := splitCounter(j0)
	var ks [64]byte
	k.aes.ctr4(&ks, lo, hi, ctr)
	ctr += 4
	var tag [16]byte
	copy(tag[:], ks[:16])
	n := min(48, len(in))
	if decrypt {
		k.gh.update(&y, in[:n])
		subtle.XORBytes(out[:n], in[:n], ks[16:16+n])
	} else {
		subtle.XORBytes(out[:n], in[:n], ks[16:16+n])
		k.gh.update(&y, out[:n])
	}
	for i := n; i < len(in); i += 64 {
		m := min(64, len(in)-i)
		k.aes.ctr4(&ks, lo, hi, ctr)
		ctr += 4
		if decrypt {
			k.gh.update(&y, in[i:i+m])
			subtle.XORBytes(out[i:i+m], in[i:i+m], ks[:m])
		} else {
			subtle.XORBytes(out[i:i+m], in[i:i+m], ks[:m])
			k.gh.update(&y, out[i:i+m])
		}
	}
	k.gh.updateLengths(&y, uint64(len(aad)), uint64(len(in)))
	var s [16]byte
	y.store(s[:])
	subtle.XORBytes(tag[:], tag[:], s[:])
	stackscratch.Wipe(ks[:])
	return tag
}

func (k *keyGeneric) seal(out, text, aad []byte, j0 counter, tag []byte) {
	t := k.crypt(out, text, aad, j0, false)
	copy(tag, t[:])
}

func (k *keyGeneric) open(out, ciphertext, aad []byte, j0 counter, tag []byte) bool {
	t := k.crypt(out, ciphertext, aad, j0, true)
	return subtle.ConstantTimeCompare(t[:len(tag)], tag) == 1
}

// sealGather copies the pieces into out and seals there: for this backend
// the copy costs little beside the AES, and sealing in one call keeps the
// four-block passes full.
func (k *keyGeneric) sealGather(out []byte, pieces [][]byte, aad []byte, j0 counter, tag []byte) {
	off := 0
	for _, p := range pieces {
		off += copy(out[off:], p)
	}
	t := k.crypt(out, out, aad, j0, false)
	copy(tag, t[:])
}

func (k *keyGeneric) streamStart(s *streamState, aad []byte, j0 counter) {
	*s = streamState{}
	var y ghashElem
	k.gh.update(&y, aad)
	y.store(s.gen.y[:])
	s.aadLen = uint64(len(aad))
	s.gen.prefixLo, s.gen.prefixHi, s.gen.ctr = splitCounter(j0)
	// The first batch is J0 and three counter blocks, as in crypt.
	k.aes.ctr4(&s.gen.ks, s.gen.prefixLo, s.gen.prefixHi, s.gen.ctr)
	s.gen.ctr += 4
	copy(s.gen.mask[:], s.gen.ks[:16])
	s.gen.ksPos = 16
}

func (k *keyGeneric) refill(s *streamState) {
	k.aes.ctr4(&s.gen.ks, s.gen.prefixLo, s.gen.prefixHi, s.gen.ctr)
	s.gen.ctr += 4
	s.gen.ksPos = 0
}

func (k *keyGeneric) streamEncrypt(s *streamState, out, in []byte) {
	s.textLen += uint64(len(in))
	y := loadElem(s.gen.y[:])
	// Finish the open block.
	if s.gen.n > 0 {
		m := min(16-s.gen.n, len(in))
		subtle.XORBytes(out[:m], in[:m], s.gen.ks[s.gen.ksPos:s.gen.ksPos+m])
		s.gen.ksPos += m
		copy(s.gen.open[s.gen.n:], out[:m])
		s.gen.n += m
		if s.gen.n == 16 {
			k.gh.update(&y, s.gen.open[:])
			s.gen.n = 0
		}
		out, in = out[m:], in[m:]
	}
	// Whole blocks with the rest of the current keystream batch.
	for len(in) >= 16 && s.gen.ksPos < 64 {
		subtle.XORBytes(out[:16], in[:16], s.gen.ks[s.gen.ksPos:s.gen.ksPos+16])
		k.gh.update(&y, out[:16])
		s.gen.ksPos += 16
		out, in = out[16:], in[16:]
	}
	// Whole batches straight from in.
	for len(in) >= 64 {
		var ks [64]byte
		k.aes.ctr4(&ks, s.gen.prefixLo, s.gen.prefixHi, s.gen.ctr)
		s.gen.ctr += 4
		subtle.XORBytes(out[:64], in[:64], ks[:])
		k.gh.update(&y, out[:64])
		stackscratch.Wipe(ks[:])
		out, in = out[64:], in[64:]
	}
	// Fewer than 64 bytes left: whole blocks, then open a block with the rest.
	if len(in) > 0 {
		if s.gen.ksPos == 64 {
			k.refill(s)
		}
		for len(in) >= 16 {
			subtle.XORBytes(out[:16], in[:16], s.gen.ks[s.gen.ksPos:s.gen.ksPos+16])
			k.gh.update(&y, out[:16])
			s.gen.ksPos += 16
			out, in = out[16:], in[16:]
		}
		if len(in) > 0 {
			subtle.XORBytes(out, in, s.gen.ks[s.gen.ksPos:s.gen.ksPos+len(in)])
			s.gen.ksPos += len(in)
			s.gen.n = copy(s.gen.open[:], out)
		}
	}
	y.store(s.gen.y[:])
}

func (k *keyGeneric) streamFinish(s *streamState) [16]byte {
	y := loadElem(s.gen.y[:])
	if s.gen.n > 0 {
		k.gh.update(&y, s.gen.open[:s.gen.n])
	}
	k.gh.updateLengths(&y, s.aadLen, s.textLen)
	var tag [16]byte
	y.store(tag[:])
	subtle.XORBytes(tag[:], tag[:], s.gen.mask[:])
	*s = streamState{}
	return tag
}
