//go:build amd64 && !purego

package aesgcm

import (
	"encoding/binary"
	"runtime"
	"unsafe"

	"github.com/vgcrypto/vg/stackscratch"
)

//go:generate env GOWORK=off go -C _asm run .

// aesniTableSize is the size of the key table the AES-NI backends' assembly
// reads (see _asm/ghash.go): 15 round keys in the standard byte order, then
// H^16..H^1 (each times x^-1, byte-reflected; the bulk loops hash 16 blocks
// per reduction), then for each power the XOR of its halves, for
// Karatsuba.
const aesniTableSize = 752

// aesniKey is a key prepared for the backends "aesni" and "aesni-avx". The
// table must be 16-byte aligned (SSE instructions read it as memory
// operands), so it is placed at an aligned offset of buf; heap objects do
// not move.
type aesniKey struct {
	buf    [aesniTableSize + 15]byte
	t      *[aesniTableSize]byte
	rounds int
	avx    bool // aesni-avx: the VEX-encoded functions
}

// newAESNIKey returns the key constructor of aesni (avx false) or
// aesni-avx (avx true).
func newAESNIKey(avx bool) func(key []byte) backend {
	return func(key []byte) backend {
		k := &aesniKey{avx: avx}
		off := int(-uintptr(unsafe.Pointer(&k.buf[0])) & 15)
		k.t = (*[aesniTableSize]byte)(k.buf[off : off+aesniTableSize])
		var w [60]uint32
		k.rounds = expandKeyWords(key, &w)
		for i := 0; i < 4*(k.rounds+1); i++ {
			binary.LittleEndian.PutUint32(k.t[4*i:], w[i])
		}
		stackscratch.WipeWords(w[:])
		if avx {
			gcmInitAESNIAVX(k.t, k.rounds)
		} else {
			gcmInitAESNI(k.t, k.rounds)
		}
		return k
	}
}

// ptr returns the address of b's first element, nil for a nil slice; the
// assembly reads nothing through it when len(b) is 0.
func ptr(b []byte) *byte { return unsafe.SliceData(b) }

func (k *aesniKey) ghashNonce(nonce []byte) (j0 counter) {
	if k.avx {
		gcmNonceAESNIAVX(k.t, ptr(nonce), len(nonce), j0.ptr())
	} else {
		gcmNonceAESNI(k.t, ptr(nonce), len(nonce), j0.ptr())
	}
	return
}

// seal is sealGather of one piece, with the assembly called from here: one
// call less on the path of every Seal.
func (k *aesniKey) seal(out, text, aad []byte, j0 counter, tag []byte) {
	pieces := [1][]byte{text}
	var buf [16]byte
	t := tagDst(tag, &buf)
	if k.avx {
		gcmSealAESNIAVX(k.t, k.rounds, ptr(out), &pieces[0], 1, ptr(aad), len(aad), j0.ptr(), len(out), t)
	} else {
		gcmSealAESNI(k.t, k.rounds, ptr(out), &pieces[0], 1, ptr(aad), len(aad), j0.ptr(), len(out), t)
	}
	finishTag(tag, &buf)
}

// open compares the tag in the assembly (see _asm's tagCheck).
func (k *aesniKey) open(out, ciphertext, aad []byte, j0 counter, tag []byte) bool {
	if k.avx {
		return gcmOpenAESNIAVX(k.t, k.rounds, ptr(out), ptr(ciphertext), len(ciphertext), ptr(aad), len(aad), j0.ptr(), ptr(tag), len(tag)) == 1
	}
	return gcmOpenAESNI(k.t, k.rounds, ptr(out), ptr(ciphertext), len(ciphertext), ptr(aad), len(aad), j0.ptr(), ptr(tag), len(tag)) == 1
}

// sealGather reads the pieces where they are: the assembly walks their
// headers, finishing a block split across pieces in registers.
func (k *aesniKey) sealGather(out []byte, pieces [][]byte, aad []byte, j0 counter, tag []byte) {
	var buf [16]byte
	t := tagDst(tag, &buf)
	if k.avx {
		gcmSealAESNIAVX(k.t, k.rounds, ptr(out), unsafe.SliceData(pieces), len(pieces), ptr(aad), len(aad), j0.ptr(), len(out), t)
	} else {
		gcmSealAESNI(k.t, k.rounds, ptr(out), unsafe.SliceData(pieces), len(pieces), ptr(aad), len(aad), j0.ptr(), len(out), t)
	}
	finishTag(tag, &buf)
}

func (k *aesniKey) streamStart(s *streamState, aad []byte, j0 counter) {
	*s = streamState{aadLen: uint64(len(aad))}
	if k.avx {
		gcmStreamStartAESNIAVX(k.t, k.rounds, &s.ni, ptr(aad), len(aad), j0.ptr())
	} else {
		gcmStreamStartAESNI(k.t, k.rounds, &s.ni, ptr(aad), len(aad), j0.ptr())
	}
}

func (k *aesniKey) streamEncrypt(s *streamState, out, in []byte) {
	nopen := int(s.textLen % 16)
	s.textLen += uint64(len(in))
	if k.avx {
		gcmStreamEncryptAESNIAVX(k.t, k.rounds, &s.ni, ptr(out), ptr(in), len(in), nopen)
	} else {
		gcmStreamEncryptAESNI(k.t, k.rounds, &s.ni, ptr(out), ptr(in), len(in), nopen)
	}
}

func (k *aesniKey) streamFinish(s *streamState) (tag [16]byte) {
	if k.avx {
		gcmStreamFinishAESNIAVX(k.t, &s.ni, int(s.textLen%16), int(s.aadLen), int(s.textLen), &tag)
	} else {
		gcmStreamFinishAESNI(k.t, &s.ni, int(s.textLen%16), int(s.aadLen), int(s.textLen), &tag)
	}
	*s = streamState{}
	return
}

// wipe zeroes the round keys and the key powers; KeepAlive keeps the
// stores from being dropped.
func (k *aesniKey) wipe() {
	clear(k.buf[:])
	runtime.KeepAlive(k)
}

// ptrOf returns t's address, for the alignment test.
func ptrOf(t *[aesniTableSize]byte) unsafe.Pointer { return unsafe.Pointer(t) }
