package chacha20poly1305_test

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	"slices"

	"github.com/vgcrypto/vg/chacha20poly1305"
)

func ExampleNew() {
	key := make([]byte, chacha20poly1305.KeySize) // a real key comes from crypto/rand or a KDF
	// New has golang.org/x/crypto/chacha20poly1305.New's shape, so it fits
	// wherever code picks an AEAD by a function value.
	var newAEAD func([]byte) (cipher.AEAD, error) = chacha20poly1305.New
	aead, err := newAEAD(key)
	if err != nil {
		panic(err)
	}
	// The extended API is one type assertion away.
	defer aead.(*chacha20poly1305.AEAD).Wipe()

	// The 12-byte nonce must be unique per message under the key: a
	// counter, as TLS does.
	nonce := make([]byte, chacha20poly1305.NonceSize)
	nonce[11] = 1
	sealed := aead.Seal(nil, nonce, []byte("hello"), []byte("header"))
	fmt.Printf("%x\n", sealed)
	// Output: 40502b8fbc8dff4d0f9ce1de299d2f11fee6f9d876
}

func ExampleNewX() {
	key := make([]byte, chacha20poly1305.KeySize)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}
	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		panic(err)
	}

	// 24-byte nonces are long enough to choose at random. Send the nonce
	// with the ciphertext.
	nonce := make([]byte, chacha20poly1305.NonceSizeX)
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	msg := append(nonce, aead.Seal(nil, nonce, []byte("attack at dawn"), nil)...)

	plaintext, err := aead.Open(nil, msg[:chacha20poly1305.NonceSizeX], msg[chacha20poly1305.NonceSizeX:], nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s\n", plaintext)
	// Output: attack at dawn
}

func ExamplePrepare() {
	key := bytes.Repeat([]byte{0x42}, chacha20poly1305.KeySize)
	// Prepare returns the *AEAD and takes options: here, the portable
	// backend by name.
	aead, err := chacha20poly1305.Prepare(key, chacha20poly1305.WithBackend("generic"))
	if err != nil {
		panic(err)
	}
	defer aead.Wipe()
	fmt.Println(aead.Backend(), aead.NonceSize())
	// Output: generic 12
}

func ExampleAEAD_Open() {
	key := bytes.Repeat([]byte{0x42}, chacha20poly1305.KeySize)
	aead, err := chacha20poly1305.Prepare(key)
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, chacha20poly1305.NonceSize)
	ad := []byte("record 7")

	// Seal in place: the plaintext's buffer, with room for the tag, is
	// reused for the ciphertext.
	buf := make([]byte, 0, 64)
	buf = append(buf, "secret message"...)
	sealed := aead.Seal(buf[:0], nonce, buf, ad)

	// Open in place too.
	opened, err := aead.Open(sealed[:0], nonce, sealed, ad)
	fmt.Printf("%s %v\n", opened, err)

	// A modified ciphertext, or the wrong additional data, fails, and
	// nothing of the plaintext is released.
	sealed = aead.Seal(nil, nonce, []byte("secret message"), ad)
	sealed[0] ^= 1
	_, err = aead.Open(nil, nonce, sealed, ad)
	fmt.Println(err)
	// Output:
	// secret message <nil>
	// chacha20poly1305: message authentication failed
}

func ExampleAEAD_SealGather() {
	key := bytes.Repeat([]byte{0x42}, chacha20poly1305.KeySize)
	aead, err := chacha20poly1305.Prepare(key)
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, chacha20poly1305.NonceSize)

	// A TLS 1.3 record's plaintext is the payload followed by the one-byte
	// content type: seal both without copying the payload.
	payload := []byte("GET / HTTP/1.1\r\n\r\n")
	contentType := []byte{23}
	header := []byte{23, 3, 3, 0, byte(len(payload) + 1 + chacha20poly1305.Overhead)}
	gathered := aead.SealGather(nil, nonce, [][]byte{payload, contentType}, header)

	contiguous := aead.Seal(nil, nonce, append(append([]byte(nil), payload...), contentType...), header)
	fmt.Println(bytes.Equal(gathered, contiguous), len(gathered))
	// Output: true 35
}

func ExampleAEAD_NewEncryptor() {
	key := bytes.Repeat([]byte{0x42}, chacha20poly1305.KeySize)
	aead, err := chacha20poly1305.Prepare(key)
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, chacha20poly1305.NonceSize)
	header := []byte("file v1")

	// Seal a text that arrives in chunks of any size, as it is read.
	e := aead.NewEncryptor(nonce, header)
	var sealed []byte
	for _, chunk := range []string{"a long", " text, read ", "in pieces"} {
		sealed = e.Encrypt(sealed, []byte(chunk))
	}
	sealed = e.Finish(sealed)
	fmt.Println(bytes.Equal(sealed, aead.Seal(nil, nonce, []byte("a long text, read in pieces"), header)))

	// Open it in chunks too: Open checks the tag over the whole message
	// before it releases any plaintext.
	d := aead.NewDecryptor(nonce, header)
	for chunk := range slices.Chunk(sealed, 10) {
		if _, err := d.Write(chunk); err != nil {
			panic(err)
		}
	}
	plaintext, err := d.Open(nil)
	fmt.Printf("%s %v\n", plaintext, err)
	// Output:
	// true
	// a long text, read in pieces <nil>
}

func ExampleBackends() {
	for _, b := range chacha20poly1305.Backends() {
		if b.Name == "generic" {
			fmt.Println(b.Name, b.Requires, b.Available)
		}
	}
	// Output: generic none true
}
