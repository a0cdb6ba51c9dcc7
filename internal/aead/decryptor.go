package aead

import (
	"errors"

	"github.com/vgcrypto/vg/stackscratch"
)

// Opener is what a Decryptor needs of its AEAD: crypto/cipher.AEAD's Open
// and Overhead.
type Opener interface {
	// Open is crypto/cipher.AEAD's Open: on a wrong tag it returns an
	// error and leaves no plaintext in dst's capacity.
	Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error)
	// Overhead is the tag size.
	Overhead() int
}

// Decryptor collects a sealed message (ciphertext and tag) through Write and
// opens it whole in Open, so that no plaintext is released before the tag
// of the whole message has been checked. The modules' exported Decryptors
// wrap it with their documentation and panics.
type Decryptor struct {
	a      Opener // nil in a zero value
	pkg    string // the module's name, for error messages
	max    uint64 // the longest sealed message the AEAD can open
	nonce  []byte
	aad    []byte
	sealed []byte
	opened bool // Open was called: the Decryptor is done
}

// NewDecryptor returns a Decryptor opening with a the message sealed under
// nonce and additionalData (both copied); maxSealed is the longest sealed
// message a can open, pkg the module's name for error messages.
func NewDecryptor(a Opener, pkg string, maxSealed uint64, nonce, additionalData []byte) Decryptor {
	return Decryptor{
		a:     a,
		pkg:   pkg,
		max:   maxSealed,
		nonce: append([]byte(nil), nonce...),
		aad:   append([]byte(nil), additionalData...),
	}
}

// Write adds the next chunk of the sealed message. It returns an error
// after Open and when the message would grow beyond the AEAD's limit. On a
// zero value (not from NewDecryptor) it panics with zero.
func (d *Decryptor) Write(zero string, chunk []byte) (int, error) {
	if d.a == nil {
		panic(zero)
	}
	if d.opened {
		return 0, d.errUsed()
	}
	if uint64(len(d.sealed))+uint64(len(chunk)) > d.max {
		return 0, errors.New(d.pkg + ": sealed message too large (more than MaxPlaintextSize bytes of ciphertext and the tag)")
	}
	d.sealed = append(d.sealed, chunk...)
	return len(chunk), nil
}

// Open verifies the tag of the message written so far and, if it is
// authentic, appends the plaintext to dst. It decrypts in the Decryptor's
// own buffer, which the AEAD's Open zeroes on a wrong tag, and wipes it
// after copying the plaintext out. On a zero value it panics with zero.
func (d *Decryptor) Open(zero string, dst []byte) ([]byte, error) {
	if d.a == nil {
		panic(zero)
	}
	if d.opened {
		return nil, d.errUsed()
	}
	d.opened = true
	sealed := d.sealed
	d.sealed = nil
	if len(sealed) < d.a.Overhead() {
		// What the AEAD's Open says of a message shorter than its tag.
		return d.a.Open(nil, d.nonce, sealed, d.aad)
	}
	pt, err := d.a.Open(sealed[:0], d.nonce, sealed, d.aad)
	if err != nil {
		return nil, err
	}
	dst = append(dst, pt...)
	stackscratch.Wipe(pt)
	return dst, nil
}

// Release is the end of an Open: the result ret when the tag was right
// (ok, which the caller has declassified), else errOpen, with out (the
// plaintext written) zeroed so that nothing unauthenticated is left.
func Release(ok bool, ret, out []byte, errOpen error) ([]byte, error) {
	if !ok {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

func (d *Decryptor) errUsed() error { return errors.New(d.pkg + ": Decryptor used after Open") }
