package aesgcm

import "github.com/vgcrypto/vg/internal/aead"

// Encryptor seals a message that arrives in chunks of any size. The
// ciphertext it produces, followed by the tag from Finish, is exactly what
// Seal returns for the concatenation of the chunks, so Open (or a Decryptor)
// opens it. An Encryptor is for one message and one goroutine. The zero
// value is not usable: every method of an Encryptor not returned by
// [AEAD.NewEncryptor] panics.
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
	k := a.check(nonce)
	e := &Encryptor{k: k}
	k.impl.streamStart(&e.s, additionalData, k.counterBlock(nonce))
	return e
}

// Encrypt appends the ciphertext of the next chunk of the message to dst
// and returns the updated slice. As with Seal, plaintext[:0] as dst encrypts
// in place and any other overlap panics. Encrypt panics after Finish and
// when the message grows beyond MaxPlaintextSize.
func (e *Encryptor) Encrypt(dst, plaintext []byte) []byte {
	e.mustBeMade()
	ret, out := panics.StreamBuffers(dst, plaintext, e.finished, e.k.wiped, e.s.textLen, MaxPlaintextSize, "aesgcm: message too large for GCM")
	e.k.impl.streamEncrypt(&e.s, out, plaintext)
	return ret
}

// Finish appends the tag (Overhead() bytes) to dst and returns the updated
// slice. The Encryptor cannot be used afterwards; its state is wiped.
func (e *Encryptor) Finish(dst []byte) []byte {
	e.mustBeMade()
	if e.finished {
		panic("aesgcm: Finish called twice")
	}
	if e.k.wiped {
		panic(errWiped)
	}
	e.finished = true
	tag := e.k.impl.streamFinish(&e.s)
	return append(dst, tag[:e.k.tagSize]...)
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
	k := a.check(nonce)
	return &Decryptor{aead.NewDecryptor(&AEAD{k}, "aesgcm", MaxPlaintextSize+uint64(k.tagSize), nonce, additionalData)}
}

// The panics of the methods of an Encryptor or a Decryptor that
// AEAD.NewEncryptor or AEAD.NewDecryptor did not make (a zero value).
const (
	errZeroEncryptor = "aesgcm: use of an Encryptor not made by AEAD.NewEncryptor (a zero value has no key)"
	errZeroDecryptor = "aesgcm: use of a Decryptor not made by AEAD.NewDecryptor (a zero value has no key)"
)

func (e *Encryptor) mustBeMade() { aead.Made(e.k, errZeroEncryptor) }

// Write adds the next chunk of the sealed message. It implements io.Writer;
// it returns an error only after Open or when the message exceeds GCM's
// limit.
func (d *Decryptor) Write(chunk []byte) (int, error) { return d.d.Write(errZeroDecryptor, chunk) }

// Open verifies the tag of the message written so far and, if it is
// authentic, appends the plaintext to dst and returns the updated slice.
// On a wrong tag it returns an error and appends nothing. A Decryptor is
// done after Open.
func (d *Decryptor) Open(dst []byte) ([]byte, error) { return d.d.Open(errZeroDecryptor, dst) }
