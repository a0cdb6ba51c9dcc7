//go:build amd64 && !purego

package aesgcm

import (
	"encoding/binary"
	"runtime"
	"unsafe"

	"github.com/vgcrypto/vg/stackscratch"
)

// vaesTableSize is the size of the key table the vaes-avx2 assembly reads
// (see _asm/vaes_avx2.go): 15 round keys in the standard byte order, then
// H^8..H^1 (each times x^-1, byte-reflected), then for each power the XOR
// of its halves. The assembly uses only VEX loads, so any alignment does.
const vaesTableSize = 496

// vaesAVX2Key is a key prepared for the backend "vaes-avx2": the AES round
// keys and the GHASH key powers its own init function computes.
type vaesAVX2Key struct {
	t      [vaesTableSize]byte
	rounds int
}

// newVAESAVX2Key is the key constructor of vaes-avx2.
func newVAESAVX2Key(key []byte) backend {
	k := &vaesAVX2Key{}
	var w [60]uint32
	k.rounds = expandKeyWords(key, &w)
	for i := 0; i < 4*(k.rounds+1); i++ {
		binary.LittleEndian.PutUint32(k.t[4*i:], w[i])
	}
	stackscratch.WipeWords(w[:])
	gcmInitVAESAVX2(&k.t, k.rounds)
	return k
}

func (k *vaesAVX2Key) ghashNonce(nonce []byte) (j0 counter) {
	gcmNonceVAESAVX2(&k.t, ptr(nonce), len(nonce), j0.ptr())
	return
}

// seal is sealGather of one piece, with the assembly called from here.
func (k *vaesAVX2Key) seal(out, text, aad []byte, j0 counter, tag []byte) {
	pieces := [1][]byte{text}
	var buf [16]byte
	gcmSealVAESAVX2(&k.t, k.rounds, ptr(out), &pieces[0], 1, ptr(aad), len(aad), j0.ptr(), len(out), tagDst(tag, &buf))
	finishTag(tag, &buf)
}

// open compares the tag in the assembly (see _asm's tagCheck).
func (k *vaesAVX2Key) open(out, ciphertext, aad []byte, j0 counter, tag []byte) bool {
	return gcmOpenVAESAVX2(&k.t, k.rounds, ptr(out), ptr(ciphertext), len(ciphertext), ptr(aad), len(aad), j0.ptr(), ptr(tag), len(tag)) == 1
}

// sealGather reads the pieces where they are: the assembly walks their
// headers, finishing a block split across pieces in registers.
func (k *vaesAVX2Key) sealGather(out []byte, pieces [][]byte, aad []byte, j0 counter, tag []byte) {
	var buf [16]byte
	gcmSealVAESAVX2(&k.t, k.rounds, ptr(out), unsafe.SliceData(pieces), len(pieces), ptr(aad), len(aad), j0.ptr(), len(out), tagDst(tag, &buf))
	finishTag(tag, &buf)
}

// The stream state lives in streamState.ni, laid out like the AES-NI
// backends' (y, counter, E(J0), keystream and ciphertext of the open
// block) but written and read only by the vaes-avx2 functions.
func (k *vaesAVX2Key) streamStart(s *streamState, aad []byte, j0 counter) {
	*s = streamState{aadLen: uint64(len(aad))}
	gcmStreamStartVAESAVX2(&k.t, k.rounds, &s.ni, ptr(aad), len(aad), j0.ptr())
}

func (k *vaesAVX2Key) streamEncrypt(s *streamState, out, in []byte) {
	nopen := int(s.textLen % 16)
	s.textLen += uint64(len(in))
	gcmStreamEncryptVAESAVX2(&k.t, k.rounds, &s.ni, ptr(out), ptr(in), len(in), nopen)
}

func (k *vaesAVX2Key) streamFinish(s *streamState) (tag [16]byte) {
	gcmStreamFinishVAESAVX2(&k.t, &s.ni, int(s.textLen%16), int(s.aadLen), int(s.textLen), &tag)
	*s = streamState{}
	return
}

// wipe zeroes the round keys and the key powers; KeepAlive keeps the
// stores from being dropped.
func (k *vaesAVX2Key) wipe() {
	clear(k.t[:])
	runtime.KeepAlive(k)
}
