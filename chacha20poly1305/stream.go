package chacha20poly1305

import (
	"github.com/vgcrypto/vg/internal/aead"
	"github.com/vgcrypto/vg/stackscratch"
)

// Encryptor seals a message that arrives in chunks of any size. The
// ciphertext it produces, followed by the tag from Finish, is exactly what
// Seal returns for the concatenation of the chunks, so Open (or a Decryptor)
// opens it. An Encryptor is for one message and one goroutine; Encrypt does
// not allocate when dst has enough capacity. The zero value is not usable:
// every method of an Encryptor not returned by [AEAD.NewEncryptor] panics.
//
// It runs on the ChaCha20 and Poly1305 block kernels of its AEAD's backend
// (assembly on ssse3 and avx2), with the cipher state, the keystream of the
// block a chunk left open and the Poly1305 state carried from one chunk to
// the next. Finish wipes them; an Encryptor dropped before Finish keeps
// them in memory until the garbage collector reclaims it.
type Encryptor struct {
	k        *keyState
	s        streamState
	finished bool
}

// NewEncryptor starts sealing a message under nonce with additionalData,
// which is hashed now (the Encryptor keeps no reference to it). It panics
// like Seal when nonce has the wrong length. Never use a nonce twice with
// one key.
func (a *AEAD) NewEncryptor(nonce, additionalData []byte) *Encryptor {
	k := a.checkNonce(nonce, "NewEncryptor")
	e := &Encryptor{k: k}
	e.s.start(k.impl.kernels(), &k.key, nonce, additionalData)
	return e
}

// Encrypt appends the ciphertext of the next chunk of the message to dst
// and returns the updated slice. As with Seal, plaintext[:0] as dst encrypts
// in place and any other overlap panics. Encrypt panics after Finish and
// when the message grows beyond [MaxPlaintextSize].
func (e *Encryptor) Encrypt(dst, plaintext []byte) []byte {
	e.mustBeMade()
	ret, out := panics.StreamBuffers(dst, plaintext, e.finished, e.k.wiped, e.s.textLen, MaxPlaintextSize, "chacha20poly1305: plaintext too large")
	e.s.encrypt(out, plaintext)
	return ret
}

// Finish appends the tag ([TagSize] bytes) to dst and returns the updated
// slice. The Encryptor cannot be used afterwards; its state is wiped.
func (e *Encryptor) Finish(dst []byte) []byte {
	e.mustBeMade()
	if e.finished {
		panic("chacha20poly1305: Finish called twice")
	}
	if e.k.wiped {
		panic(errWiped)
	}
	e.finished = true
	ret, out := aead.SliceForAppend(dst, TagSize)
	e.s.finish((*[TagSize]byte)(out))
	return ret
}

// Decryptor opens a sealed message (ciphertext followed by its tag, as Seal
// or an Encryptor produce it) that arrives in chunks. It never releases
// plaintext that has not been verified: Write only collects the chunks, and
// Open checks the tag over the whole message before decrypting anything into
// the caller's buffer. The price is that the Decryptor holds the sealed
// message until Open, as any safe decryption of a one-tag message must.
// The zero value is not usable: every method of a Decryptor not returned by
// [AEAD.NewDecryptor] panics.
type Decryptor struct {
	d aead.Decryptor
}

// NewDecryptor starts opening a message sealed under nonce with
// additionalData (both are copied). It panics like Open when nonce has the
// wrong length.
func (a *AEAD) NewDecryptor(nonce, additionalData []byte) *Decryptor {
	k := a.checkNonce(nonce, "NewDecryptor")
	return &Decryptor{aead.NewDecryptor(&AEAD{k}, "chacha20poly1305", MaxPlaintextSize+TagSize, nonce, additionalData)}
}

// The panics of the methods of an Encryptor or a Decryptor that
// AEAD.NewEncryptor or AEAD.NewDecryptor did not make (a zero value).
const (
	errZeroEncryptor = "chacha20poly1305: use of an Encryptor not made by AEAD.NewEncryptor (a zero value has no key)"
	errZeroDecryptor = "chacha20poly1305: use of a Decryptor not made by AEAD.NewDecryptor (a zero value has no key)"
)

func (e *Encryptor) mustBeMade() { aead.Made(e.k, errZeroEncryptor) }

// Write adds the next chunk of the sealed message. It implements io.Writer;
// it returns an error only after Open or when the message grows beyond
// [MaxPlaintextSize] plus the tag.
func (d *Decryptor) Write(chunk []byte) (int, error) { return d.d.Write(errZeroDecryptor, chunk) }

// Open verifies the tag of the message written so far and, if it is
// authentic, appends the plaintext to dst and returns the updated slice.
// On a wrong tag it returns an error and appends nothing. A Decryptor is
// done after Open.
func (d *Decryptor) Open(dst []byte) ([]byte, error) { return d.d.Open(errZeroDecryptor, dst) }

// streamState is a ChaCha20-Poly1305 seal in progress over the block
// kernels k, fed in chunks of any length. Every field but the lengths and
// the counts is secret (the ciphertext tail is not, but it is wiped with
// the rest).
//
// Invariants between chunks: st is at the next unused keystream block;
// ks[used:] is the unused keystream of the block the last chunk opened
// (used == blockSize when no block is open); ct[:ctN] (ctN < 16) is the
// ciphertext after the last whole 16-byte block Poly1305 has absorbed.
// Which path a chunk takes depends only on used, ctN and the chunk's
// length, all public.
type streamState struct {
	k       kernels
	st      [16]uint32
	p       polyState
	ks      [blockSize]byte
	used    int
	ct      [16]byte
	ctN     int
	adLen   uint64
	textLen uint64
}

// start prepares s for a message under key and nonce (checked by the
// caller) with additional data ad.
func (s *streamState) start(k kernels, key *[KeySize]byte, nonce, ad []byte) {
	s.k = k
	k.start(&s.st, &s.p, key, nonce, ad)
	s.used = blockSize
	s.adLen = uint64(len(ad))
}

// encrypt writes the encryption of the next len(in) bytes of the message to
// out (len(out) == len(in), aliasing in exactly or not at all) and hashes
// them: first the rest of the open keystream block, then whole blocks
// straight from in to out through the block kernel, in chunkSize runs as
// sealKernels does, and last a partial block, whose keystream is kept.
func (s *streamState) encrypt(out, in []byte) {
	s.textLen += uint64(len(in))
	k := s.k
	if s.used < blockSize && len(in) > 0 {
		n := min(blockSize-s.used, len(in))
		xorBytes(out[:n], in[:n], s.ks[s.used:s.used+n])
		s.used += n
		s.absorb(out[:n])
		out, in = out[n:], in[n:]
	}
	for len(in) >= blockSize {
		n := min(len(in), chunkSize) &^ (blockSize - 1)
		k.xorBlocks(&s.st, out[:n], in[:n])
		s.absorb(out[:n])
		out, in = out[n:], in[n:]
	}
	if len(in) > 0 {
		k.xorBlocks(&s.st, s.ks[:], zeroBlock[:])
		s.used = xorBytes(out, in, s.ks[:len(in)])
		s.absorb(out)
	}
}

// absorb hashes ciphertext ct, after the ciphertext hashed so far: it
// completes the buffered partial 16-byte block first, hashes the whole
// blocks of the rest where they are, and buffers what is left.
func (s *streamState) absorb(ct []byte) {
	if s.ctN > 0 {
		n := copy(s.ct[s.ctN:], ct)
		s.ctN += n
		ct = ct[n:]
		if s.ctN < len(s.ct) {
			return
		}
		s.k.polyBlocks(&s.p, s.ct[:])
		s.ctN = 0
	}
	whole := len(ct) &^ 15
	if whole > 0 {
		s.k.polyBlocks(&s.p, ct[:whole])
	}
	s.ctN = copy(s.ct[:], ct[whole:])
}

// finish writes the tag of the message, as sealKernels would for the
// concatenation of the chunks, and wipes s.
func (s *streamState) finish(tag *[TagSize]byte) {
	s.k.finish(&s.p, tag, s.ct[:s.ctN], s.adLen, s.textLen)
	stackscratch.Wipe(s.ks[:])
	stackscratch.Wipe(s.ct[:])
	wipeState(&s.st, &s.p)
	s.used, s.ctN = blockSize, 0
}
