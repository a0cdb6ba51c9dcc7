package aesgcm_test

import (
	"bytes"
	"crypto/cipher"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vgcrypto/vg/aesgcm"
)

var exampleKey, _ = hex.DecodeString("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")

func ExampleNew() {
	// New has x/crypto's and crypto/cipher's constructor shape, so it fits
	// wherever code picks an AEAD by a function value.
	var newAEAD func(key []byte) (cipher.AEAD, error) = aesgcm.New
	aead, err := newAEAD(exampleKey)
	if err != nil {
		panic(err)
	}
	fmt.Println(aead.NonceSize(), aead.Overhead())

	// The extended API is one type assertion away.
	fmt.Println(aead.(*aesgcm.AEAD).Backend() != "")
	// Output:
	// 12 16
	// true
}

func ExamplePrepare() {
	// Prepare the key once; every Seal and Open reuses its round keys and
	// GHASH key powers.
	g, err := aesgcm.Prepare(exampleKey)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.NonceSize(), g.Overhead())

	// A named backend, with a shorter tag.
	g, err = aesgcm.Prepare(exampleKey, aesgcm.WithBackend("generic"), aesgcm.WithTagSize(12))
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Backend(), g.Overhead())
	// Output:
	// 12 16
	// generic 12
}

func ExampleNewWithRandomNonce() {
	// Each Seal draws its nonce from crypto/rand and puts it in front of
	// the ciphertext, as crypto/cipher.NewGCMWithRandomNonce does.
	aead, err := aesgcm.NewWithRandomNonce(exampleKey)
	if err != nil {
		panic(err)
	}
	sealed := aead.Seal(nil, nil, []byte("token"), nil)
	fmt.Println(aead.NonceSize(), len(sealed)-len("token"))
	plaintext, err := aead.Open(nil, nil, sealed, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s\n", plaintext)
	// Output:
	// 0 28
	// token
}

func ExampleAEAD_Seal() {
	g, err := aesgcm.Prepare(exampleKey)
	if err != nil {
		panic(err)
	}
	defer g.Wipe()
	// Never reuse a nonce with the same key: use a counter or crypto/rand.
	nonce := make([]byte, g.NonceSize())
	header := []byte("record header")
	sealed := g.Seal(nil, nonce, []byte("attack at dawn"), header)

	plaintext, err := g.Open(nil, nonce, sealed, header)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s\n", plaintext)

	sealed[0] ^= 1
	_, err = g.Open(nil, nonce, sealed, header)
	fmt.Println(err)
	// Output:
	// attack at dawn
	// aesgcm: message authentication failed
}

func ExampleAEAD_SealGather() {
	g, err := aesgcm.Prepare(exampleKey)
	if err != nil {
		panic(err)
	}
	// A TLS 1.3 record: the payload, then the content type, sealed without
	// concatenating them first.
	nonce := make([]byte, 12)
	payload := []byte("GET / HTTP/1.1\r\n\r\n")
	contentType := []byte{23} // application_data
	header := []byte{23, 3, 3, 0, byte(len(payload) + 1 + g.Overhead())}
	record := g.SealGather(header, nonce, [][]byte{payload, contentType}, header)

	same := g.Seal(nil, nonce, append(payload, contentType...), header)
	fmt.Println(bytes.Equal(record[len(header):], same))
	// Output: true
}

func ExampleAEAD_NewEncryptor() {
	g, err := aesgcm.Prepare(exampleKey)
	if err != nil {
		panic(err)
	}
	nonce, aad := make([]byte, 12), []byte("file v1")
	src := strings.NewReader(strings.Repeat("a text that arrives in chunks; ", 100))

	e := g.NewEncryptor(nonce, aad)
	var sealed []byte
	chunk := make([]byte, 1000)
	for {
		n, err := src.Read(chunk)
		sealed = e.Encrypt(sealed, chunk[:n])
		if err == io.EOF {
			break
		}
	}
	sealed = e.Finish(sealed)

	// The result is what Seal produces for the whole text.
	plaintext, err := g.Open(nil, nonce, sealed, aad)
	fmt.Println(len(plaintext), err)
	// Output: 3100 <nil>
}

func ExampleAEAD_NewDecryptor() {
	g, err := aesgcm.Prepare(exampleKey)
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, 12)
	sealed := g.Seal(nil, nonce, []byte("verified before it is released"), nil)

	// Chunks of the sealed message arrive; nothing is decrypted until the
	// tag over all of them has been checked.
	d := g.NewDecryptor(nonce, nil)
	for chunk := range slices.Chunk(sealed, 7) {
		if _, err := d.Write(chunk); err != nil {
			panic(err)
		}
	}
	plaintext, err := d.Open(nil)
	fmt.Printf("%s %v\n", plaintext, err)
	// Output: verified before it is released <nil>
}

func ExampleBackends() {
	for _, b := range aesgcm.Backends() {
		if b.Name == "generic" {
			fmt.Println(b.Name, b.Requires, b.Available)
		}
	}
	// Output: generic none true
}
