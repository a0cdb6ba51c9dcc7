package chacha20poly1305

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/vgcrypto/vg/stackscratch"
)

// The drivers below (sealKernels, openKernels, sealGatherKernels) build
// seal, open and sealGather from two block kernels:
//
//   - k.xorBlocks(s, dst, src) sets dst to src XOR len(src)/64 keystream
//     blocks starting at block s[12], and advances s[12]; len(src) is a
//     multiple of 64. It works like xorBlocksGeneric.
//   - k.polyBlocks(p, msg) absorbs msg, a multiple of 16 bytes, as full
//     Poly1305 blocks. It works like polyBlocksGeneric.
//
// The drivers take the key a backend holds and the caller's nonce; start
// derives the message's key and nonce. The generic backend is the drivers
// over the Go kernels; a backend with assembly uses them, over its own
// kernels, for what it does not do in whole-message assembly.

// kernels names the block kernels the drivers run on: genericKernels
// here, the assembly backends' in asm_amd64.go, where xorBlocks and
// polyBlocks select them with a switch (in chacha20poly1305_noasm.go there
// is nothing to select). It is a small value compared in a switch, not an
// interface, a function value or a type parameter: through those the
// compiler calls the kernels indirectly, escape analysis no longer sees the
// callee, and the drivers' cipher and Poly1305 states and keystream blocks
// would move to the heap, one allocation per message.
type kernels uint8

// genericKernels are xorBlocksGeneric and polyBlocksGeneric.
const genericKernels kernels = 0

// keyGeneric is a key prepared for the generic backend, the portable one:
// the drivers over the Go kernels.
type keyGeneric struct{ keyState }

// newKeyGeneric is the key constructor of generic.
func newKeyGeneric(key []byte, xNonce bool) keyImpl { return newKey[keyGeneric](key, xNonce) }

func (*keyGeneric) kernels() kernels { return genericKernels }

func (k *keyGeneric) seal(out, nonce, plaintext, ad []byte) {
	sealKernels(genericKernels, out, &k.key, nonce, plaintext, ad)
}

func (k *keyGeneric) open(out, nonce, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	return openKernels(genericKernels, out, &k.key, nonce, ciphertext, tag, ad)
}

func (k *keyGeneric) sealGather(out, nonce []byte, plaintext [][]byte, ad []byte) {
	sealGatherKernels(genericKernels, out, &k.key, nonce, plaintext, ad)
}

// chunkSize is how much text the drivers encrypt before hashing it (or hash
// before decrypting it), so that the second pass reads from the L1 cache.
const chunkSize = 4096

// zeroBlock is an all-zero block: XORing it yields the raw keystream.
var zeroBlock [blockSize]byte

// start prepares the cipher state for the message key of key and nonce
// (see messageKey), derives the Poly1305 key from block 0 and absorbs the
// padded additional data. The cipher state is left at block 1.
func (k kernels) start(st *[16]uint32, p *polyState, key *[KeySize]byte, nonce []byte, ad []byte) {
	var subkey [KeySize]byte
	mk, n := messageKey(&subkey, key, nonce)
	initState(st, mk, &n)
	wipeSubkey(&subkey, nonce)
	var block [blockSize]byte
	k.xorBlocks(st, block[:], zeroBlock[:])
	p.init((*[32]byte)(block[:32]))
	stackscratch.Wipe(block[:])
	k.absorbPadded(p, ad)
}

// absorbPadded absorbs text followed by zeros up to a multiple of 16 bytes.
func (k kernels) absorbPadded(p *polyState, text []byte) {
	whole := len(text) &^ 15
	if whole > 0 {
		k.polyBlocks(p, text[:whole])
	}
	if whole < len(text) {
		var last [16]byte
		copy(last[:], text[whole:])
		k.polyBlocks(p, last[:])
		stackscratch.Wipe(last[:])
	}
}

// finish absorbs the ciphertext's last bytes ct (after its whole 16-byte
// blocks have been absorbed; len(ct) < 16), padded, and the lengths block, in
// one call, and writes the tag. The lengths are uint64, as in the lengths
// block, so that a stream longer than an int holds (on 32-bit platforms)
// is hashed right.
func (k kernels) finish(p *polyState, tag *[TagSize]byte, ct []byte, adLen, ctLen uint64) {
	var last [32]byte
	n := 16
	if len(ct) > 0 {
		copy(last[:], ct)
		n = 32
	}
	lengths := last[n-16 : n]
	binary.LittleEndian.PutUint64(lengths[0:], adLen)
	binary.LittleEndian.PutUint64(lengths[8:], ctLen)
	k.polyBlocks(p, last[:n])
	polyFinish(p, tag)
	stackscratch.Wipe(last[:])
}

// xorTail sets dst to src XOR the keystream of the next block, for
// len(src) < 64, and advances the counter.
func (k kernels) xorTail(st *[16]uint32, dst, src []byte) {
	var ks [blockSize]byte
	k.xorBlocks(st, ks[:], zeroBlock[:])
	xorBytes(dst, src, ks[:len(src)])
	stackscratch.Wipe(ks[:])
}

// sealKernels writes the ChaCha20-Poly1305 encryption of plaintext under key
// and nonce to out[:len(plaintext)] and the tag to out[len(plaintext):];
// len(out) is len(plaintext)+16, and out may alias plaintext exactly.
func sealKernels(k kernels, out []byte, key *[KeySize]byte, nonce []byte, plaintext, ad []byte) {
	var st [16]uint32
	var p polyState
	k.start(&st, &p, key, nonce, ad)

	ct := out[:len(plaintext)]
	done := 0
	for len(plaintext)-done >= blockSize {
		n := min(len(plaintext)-done, chunkSize) &^ (blockSize - 1)
		k.xorBlocks(&st, ct[done:done+n], plaintext[done:done+n])
		k.polyBlocks(&p, ct[done:done+n])
		done += n
	}
	if done < len(plaintext) {
		k.xorTail(&st, ct[done:], plaintext[done:])
		whole := (len(plaintext) - done) &^ 15
		if whole > 0 {
			k.polyBlocks(&p, ct[done:done+whole])
		}
		done += whole
	}
	k.finish(&p, (*[TagSize]byte)(out[len(plaintext):]), ct[done:], uint64(len(ad)), uint64(len(plaintext)))
	wipeState(&st, &p)
}

// openKernels checks tag over ad and ciphertext and writes the decryption of
// ciphertext to out (len(out) == len(ciphertext), out may alias ciphertext
// exactly). It reports whether the tag is valid; when it is not, out holds
// unauthenticated plaintext, which the caller must erase.
func openKernels(k kernels, out []byte, key *[KeySize]byte, nonce []byte, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	var st [16]uint32
	var p polyState
	k.start(&st, &p, key, nonce, ad)

	done := 0
	for len(ciphertext)-done >= blockSize {
		n := min(len(ciphertext)-done, chunkSize) &^ (blockSize - 1)
		k.polyBlocks(&p, ciphertext[done:done+n])
		k.xorBlocks(&st, out[done:done+n], ciphertext[done:done+n])
		done += n
	}
	var last [16]byte
	var lastN int
	if done < len(ciphertext) {
		whole := (len(ciphertext) - done) &^ 15
		if whole > 0 {
			k.polyBlocks(&p, ciphertext[done:done+whole])
		}
		// The partial block is read before out, which may be the same
		// memory, is written.
		lastN = copy(last[:], ciphertext[done+whole:])
		k.xorTail(&st, out[done:], ciphertext[done:])
	}
	var want [TagSize]byte
	k.finish(&p, &want, last[:lastN], uint64(len(ad)), uint64(len(ciphertext)))
	ok := subtle.ConstantTimeCompare(want[:], tag[:]) == 1
	stackscratch.Wipe(want[:])
	stackscratch.Wipe(last[:])
	wipeState(&st, &p)
	return ok
}

// sealGatherKernels is sealKernels of the concatenation of the slices of
// plaintext, read from the slices in place: len(out) is their total length
// plus 16, and a slice overlaps out only if it is exactly its own part of
// out (in place). A slice that starts inside a keystream block opened by the
// previous slice first finishes that block from the saved keystream; whole
// blocks go straight from the slice to out; the ciphertext is hashed from
// out as soon as whole 16-byte blocks of it exist.
func sealGatherKernels(k kernels, out []byte, key *[KeySize]byte, nonce []byte, plaintext [][]byte, ad []byte) {
	var st [16]uint32
	var p polyState
	k.start(&st, &p, key, nonce, ad)

	var ks [blockSize]byte // keystream of the open block
	used := blockSize      // bytes of ks already used; blockSize when no block is open
	written, hashed := 0, 0
	for _, src := range plaintext {
		if len(src) == 0 {
			continue
		}
		if used < blockSize {
			n := min(blockSize-used, len(src))
			xorBytes(out[written:written+n], src[:n], ks[used:used+n])
			used += n
			written += n
			src = src[n:]
		}
		for len(src) >= blockSize {
			n := min(len(src), chunkSize) &^ (blockSize - 1)
			k.xorBlocks(&st, out[written:written+n], src[:n])
			written += n
			src = src[n:]
			if len(src) >= blockSize {
				ready := (written - hashed) &^ 15
				k.polyBlocks(&p, out[hashed:hashed+ready])
				hashed += ready
			}
		}
		if len(src) > 0 {
			k.xorBlocks(&st, ks[:], zeroBlock[:])
			used = xorBytes(out[written:], src, ks[:len(src)])
			written += used
		}
		if ready := (written - hashed) &^ 15; ready > 0 {
			k.polyBlocks(&p, out[hashed:hashed+ready])
			hashed += ready
		}
	}
	k.finish(&p, (*[TagSize]byte)(out[written:]), out[hashed:written], uint64(len(ad)), uint64(written))
	stackscratch.Wipe(ks[:])
	wipeState(&st, &p)
}

// xorBytes sets dst[i] = a[i] ^ b[i] for i < len(a), 8 bytes at a time and
// then byte by byte, and returns len(a). len(b) and len(dst) are at least
// len(a); dst may alias a or b exactly.
func xorBytes(dst, a, b []byte) int {
	n := len(a)
	i := 0
	for ; n-i >= 8; i += 8 {
		v := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:])
		binary.LittleEndian.PutUint64(dst[i:], v)
	}
	for ; i < n; i++ {
		dst[i] = a[i] ^ b[i]
	}
	return n
}

// wipeState zeroes a cipher state and a Poly1305 state.
//
//go:noinline
func wipeState(st *[16]uint32, p *polyState) {
	*st = [16]uint32{}
	*p = polyState{}
}
