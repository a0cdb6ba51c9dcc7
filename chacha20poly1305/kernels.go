package chacha20poly1305

import (
	"crypto/subtle"
	"encoding/binary"
)

// The drivers below build seal, open and sealGather from a backend's two
// block kernels:
//
//   - b.xorBlocks(s, dst, src) sets dst to src XOR len(src)/64 keystream
//     blocks starting at block s[12], and advances s[12]; len(src) is a
//     multiple of 64. It works like xorBlocksGeneric.
//   - b.polyBlocks(p, msg) absorbs msg, a multiple of 16 bytes, as full
//     Poly1305 blocks. It works like polyBlocksGeneric.
//
// A backend with whole-message assembly still uses them for what it does
// not do in assembly.

// chunkSize is how much text the drivers encrypt before hashing it (or hash
// before decrypting it), so that the second pass reads from the L1 cache.
const chunkSize = 4096

// zeroBlock is an all-zero block: XORing it yields the raw keystream.
var zeroBlock [blockSize]byte

// start prepares the cipher state for key and nonce, derives the Poly1305
// key from block 0 and absorbs the padded additional data. The cipher state
// is left at block 1.
func (b backend) start(st *[16]uint32, p *polyState, key *[KeySize]byte, nonce *[NonceSize]byte, ad []byte) {
	initState(st, key, nonce)
	var block [blockSize]byte
	b.xorBlocks(st, block[:], zeroBlock[:])
	p.init((*[32]byte)(block[:32]))
	wipe(block[:])
	b.absorbPadded(p, ad)
}

// absorbPadded absorbs text followed by zeros up to a multiple of 16 bytes.
func (b backend) absorbPadded(p *polyState, text []byte) {
	whole := len(text) &^ 15
	if whole > 0 {
		b.polyBlocks(p, text[:whole])
	}
	if whole < len(text) {
		var last [16]byte
		copy(last[:], text[whole:])
		b.polyBlocks(p, last[:])
		wipe(last[:])
	}
}

// finish absorbs the ciphertext's last bytes ct (after its whole 16-byte
// blocks have been absorbed; len(ct) < 16), padded, and the lengths block, in
// one call, and writes the tag.
func (b backend) finish(p *polyState, tag *[TagSize]byte, ct []byte, adLen, ctLen int) {
	var last [32]byte
	n := 16
	if len(ct) > 0 {
		copy(last[:], ct)
		n = 32
	}
	lengths := last[n-16 : n]
	binary.LittleEndian.PutUint64(lengths[0:], uint64(adLen))
	binary.LittleEndian.PutUint64(lengths[8:], uint64(ctLen))
	b.polyBlocks(p, last[:n])
	polyFinish(p, tag)
	wipe(last[:])
}

// xorTail sets dst to src XOR the keystream of the next block, for
// len(src) < 64, and advances the counter.
func (b backend) xorTail(st *[16]uint32, dst, src []byte) {
	var ks [blockSize]byte
	b.xorBlocks(st, ks[:], zeroBlock[:])
	xorBytes(dst, src, ks[:len(src)])
	wipe(ks[:])
}

// sealKernels writes the ChaCha20-Poly1305 encryption of plaintext under key and
// nonce to out[:len(plaintext)] and the tag to out[len(plaintext):]; len(out)
// is len(plaintext)+16, and out may alias plaintext exactly.
func (b backend) sealKernels(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, plaintext, ad []byte) {
	var st [16]uint32
	var p polyState
	b.start(&st, &p, key, nonce, ad)

	ct := out[:len(plaintext)]
	done := 0
	for len(plaintext)-done >= blockSize {
		n := min(len(plaintext)-done, chunkSize) &^ (blockSize - 1)
		b.xorBlocks(&st, ct[done:done+n], plaintext[done:done+n])
		b.polyBlocks(&p, ct[done:done+n])
		done += n
	}
	if done < len(plaintext) {
		b.xorTail(&st, ct[done:], plaintext[done:])
		whole := (len(plaintext) - done) &^ 15
		if whole > 0 {
			b.polyBlocks(&p, ct[done:done+whole])
		}
		done += whole
	}
	b.finish(&p, (*[TagSize]byte)(out[len(plaintext):]), ct[done:], len(ad), len(plaintext))
	wipeState(&st, &p)
}

// openKernels checks tag over ad and ciphertext and writes the decryption of
// ciphertext to out (len(out) == len(ciphertext), out may alias ciphertext
// exactly). It reports whether the tag is valid; when it is not, out holds
// unauthenticated plaintext, which the caller must erase.
func (b backend) openKernels(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, ciphertext []byte, tag *[TagSize]byte, ad []byte) bool {
	var st [16]uint32
	var p polyState
	b.start(&st, &p, key, nonce, ad)

	done := 0
	for len(ciphertext)-done >= blockSize {
		n := min(len(ciphertext)-done, chunkSize) &^ (blockSize - 1)
		b.polyBlocks(&p, ciphertext[done:done+n])
		b.xorBlocks(&st, out[done:done+n], ciphertext[done:done+n])
		done += n
	}
	var last [16]byte
	var lastN int
	if done < len(ciphertext) {
		whole := (len(ciphertext) - done) &^ 15
		if whole > 0 {
			b.polyBlocks(&p, ciphertext[done:done+whole])
		}
		// The partial block is read before out, which may be the same
		// memory, is written.
		lastN = copy(last[:], ciphertext[done+whole:])
		b.xorTail(&st, out[done:], ciphertext[done:])
	}
	var want [TagSize]byte
	b.finish(&p, &want, last[:lastN], len(ad), len(ciphertext))
	ok := subtle.ConstantTimeCompare(want[:], tag[:]) == 1
	wipe(want[:])
	wipe(last[:])
	wipeState(&st, &p)
	return ok
}

// sealGatherKernels is sealKernels of the concatenation of the slices of plaintext, read
// from the slices in place: len(out) is their total length plus 16, and a
// slice overlaps out only if it is exactly its own part of out (in place). A slice that starts inside a keystream block
// opened by the previous slice first finishes that block from the saved
// keystream; whole blocks go straight from the slice to out; the ciphertext
// is hashed from out as soon as whole 16-byte blocks of it exist.
func (b backend) sealGatherKernels(out []byte, key *[KeySize]byte, nonce *[NonceSize]byte, plaintext [][]byte, ad []byte) {
	var st [16]uint32
	var p polyState
	b.start(&st, &p, key, nonce, ad)

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
			b.xorBlocks(&st, out[written:written+n], src[:n])
			written += n
			src = src[n:]
			if len(src) >= blockSize {
				ready := (written - hashed) &^ 15
				b.polyBlocks(&p, out[hashed:hashed+ready])
				hashed += ready
			}
		}
		if len(src) > 0 {
			b.xorBlocks(&st, ks[:], zeroBlock[:])
			used = xorBytes(out[written:], src, ks[:len(src)])
			written += used
		}
		if ready := (written - hashed) &^ 15; ready > 0 {
			b.polyBlocks(&p, out[hashed:hashed+ready])
			hashed += ready
		}
	}
	b.finish(&p, (*[TagSize]byte)(out[written:]), out[hashed:written], len(ad), written)
	wipe(ks[:])
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

// wipe zeroes b. It is not inlined, so the compiler cannot drop the stores
// as dead even when b is a local that is not read again.
//
//go:noinline
func wipe(b []byte) {
	clear(b)
}

// wipeState zeroes a cipher state and a Poly1305 state.
//
//go:noinline
func wipeState(st *[16]uint32, p *polyState) {
	*st = [16]uint32{}
	*p = polyState{}
}
