package chacha20poly1305

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unhex decodes the RFC's hex dumps: bytes separated by spaces, colons or
// line breaks.
func unhex(s string) []byte {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, ":", " ")), "")
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	keyRFC = unhex(`00:01:02:03:04:05:06:07:08:09:0a:0b:0c:0d:0e:0f:10:11:12:13:14:15:16:17:18:19:1a:1b:1c:1d:1e:1f`)

	sunscreen = []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
)

// RFC 8439 section 2.1.1.
func TestQuarterRound(t *testing.T) {
	a, b, c, d := QuarterRound(0x11111111, 0x01020304, 0x9b8d6f43, 0x01234567)
	assert.Equal(t, [4]uint32{0xea2a92f4, 0xcb1cf8ce, 0x4581472e, 0x5881c4bb}, [4]uint32{a, b, c, d})
}

// RFC 8439 section 2.3.2.
func TestBlock(t *testing.T) {
	nonce := unhex(`00:00:00:09:00:00:00:4a:00:00:00:00`)
	want := unhex(`10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4
		c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e
		d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2
		b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e`)
	got := Block(keyRFC, 1, nonce)
	assert.Equal(t, want, got[:])
}

// RFC 8439 section 2.4.2.
func TestEncrypt(t *testing.T) {
	nonce := unhex(`00:00:00:00:00:00:00:4a:00:00:00:00`)
	want := unhex(`6e 2e 35 9a 25 68 f9 80 41 ba 07 28 dd 0d 69 81
		e9 7e 7a ec 1d 43 60 c2 0a 27 af cc fd 9f ae 0b
		f9 1b 65 c5 52 47 33 ab 8f 59 3d ab cd 62 b3 57
		16 39 d6 24 e6 51 52 ab 8f 53 0c 35 9f 08 61 d8
		07 ca 0d bf 50 0d 6a 61 56 a3 8e 08 8a 22 b6 5e
		52 bc 51 4d 16 cc f8 06 81 8c e9 1a b7 79 37 36
		5a f9 0b bf 74 a3 5b e6 b4 0b 8e ed f2 78 5e 42
		87 4d`)
	got := Encrypt(keyRFC, 1, nonce, sunscreen)
	assert.Equal(t, want, got)
	assert.Equal(t, sunscreen, Encrypt(keyRFC, 1, nonce, got))
}

// RFC 8439 section 2.5.2.
func TestPoly1305(t *testing.T) {
	key := unhex(`85:d6:be:78:57:55:6d:33:7f:44:52:fe:42:d5:06:a8:01:03:80:8a:fb:0d:b2:fd:4a:bf:f6:af:41:49:f5:1b`)
	tag := Poly1305([32]byte(key), []byte("Cryptographic Forum Research Group"))
	assert.Equal(t, unhex(`a8:06:1d:c1:30:51:36:c6:c2:2b:8b:af:0c:01:27:a9`), tag[:])
}

// RFC 8439 section 2.6.2.
func TestPolyKeyGen(t *testing.T) {
	key := unhex(`80 81 82 83 84 85 86 87 88 89 8a 8b 8c 8d 8e 8f
		90 91 92 93 94 95 96 97 98 99 9a 9b 9c 9d 9e 9f`)
	nonce := unhex(`00 00 00 00 00 01 02 03 04 05 06 07`)
	want := unhex(`8a d5 a0 8b 90 5f 81 cc 81 50 40 27 4a b2 94 71
		a8 33 b6 37 e3 fd 0d a5 08 db b8 e2 fd d1 a6 46`)
	got := PolyKeyGen(key, nonce)
	assert.Equal(t, want, got[:])
}

// RFC 8439 section 2.8.2.
func TestAEAD(t *testing.T) {
	aad := unhex(`50 51 52 53 c0 c1 c2 c3 c4 c5 c6 c7`)
	key := unhex(`80 81 82 83 84 85 86 87 88 89 8a 8b 8c 8d 8e 8f
		90 91 92 93 94 95 96 97 98 99 9a 9b 9c 9d 9e 9f`)
	nonce := unhex(`07 00 00 00 40 41 42 43 44 45 46 47`)
	otk := unhex(`7b ac 2b 25 2d b4 47 af 09 b6 7a 55 a4 e9 55 84
		0a e1 d6 73 10 75 d9 eb 2a 93 75 78 3e d5 53 ff`)
	ciphertext := unhex(`d3 1a 8d 34 64 8e 60 db 7b 86 af bc 53 ef 7e c2
		a4 ad ed 51 29 6e 08 fe a9 e2 b5 a7 36 ee 62 d6
		3d be a4 5e 8c a9 67 12 82 fa fb 69 da 92 72 8b
		1a 71 de 0a 9e 06 0b 29 05 d6 a5 b6 7e cd 3b 36
		92 dd bd 7f 2d 77 8b 8c 98 03 ae e3 28 09 1b 58
		fa b3 24 e4 fa d6 75 94 55 85 80 8b 48 31 d7 bc
		3f f4 de f0 8e 4b 7a 9d e5 76 d2 65 86 ce c6 4b
		61 16`)
	tag := unhex(`1a:e1:0b:59:4f:09:e2:6a:7e:90:2e:cb:d0:60:06:91`)

	gotOTK := PolyKeyGen(key, nonce)
	assert.Equal(t, otk, gotOTK[:])
	sealed := Seal(key, nonce, sunscreen, aad)
	assert.Equal(t, append(append([]byte(nil), ciphertext...), tag...), sealed)

	pt, err := Open(key, nonce, sealed, aad)
	require.NoError(t, err)
	assert.Equal(t, sunscreen, pt)

	sealed[len(sealed)-1] ^= 1
	_, err = Open(key, nonce, sealed, aad)
	assert.ErrorIs(t, err, ErrOpen)
	_, err = Open(key, nonce, sealed[:TagSize-1], aad)
	assert.ErrorIs(t, err, ErrOpen)
}

// draft-irtf-cfrg-xchacha-03 section 2.2.1.
func TestHChaCha20(t *testing.T) {
	nonce := unhex(`00:00:00:09:00:00:00:4a:00:00:00:00:31:41:59:27`)
	want := unhex(`82413b42 27b27bfe d30e4250 8a877d73 a0f9e4d5 8a74a853 c12ec413 26d3ecdc`)
	got := HChaCha20(keyRFC, nonce)
	assert.Equal(t, want, got[:])
}

// draft-irtf-cfrg-xchacha-03 appendix A.3.1.
func TestXAEAD(t *testing.T) {
	aad := unhex(`50 51 52 53 c0 c1 c2 c3 c4 c5 c6 c7`)
	key := unhex(`80 81 82 83 84 85 86 87 88 89 8a 8b 8c 8d 8e 8f
		90 91 92 93 94 95 96 97 98 99 9a 9b 9c 9d 9e 9f`)
	nonce := unhex(`40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f
		50 51 52 53 54 55 56 57`)
	ciphertext := unhex(`bd 6d 17 9d 3e 83 d4 3b 95 76 57 94 93 c0 e9 39
		57 2a 17 00 25 2b fa cc be d2 90 2c 21 39 6c bb
		73 1c 7f 1b 0b 4a a6 44 0b f3 a8 2f 4e da 7e 39
		ae 64 c6 70 8c 54 c2 16 cb 96 b7 2e 12 13 b4 52
		2f 8c 9b a4 0d b5 d9 45 b1 1b 69 b9 82 c1 bb 9e
		3f 3f ac 2b c3 69 48 8f 76 b2 38 35 65 d3 ff f9
		21 f9 66 4c 97 63 7d a9 76 88 12 f6 15 c6 8b 13
		b5 2e`)
	tag := unhex(`c0:87:59:24:c1:c7:98:79:47:de:af:d8:78:0a:cf:49`)

	sealed := SealX(key, nonce, sunscreen, aad)
	assert.Equal(t, append(append([]byte(nil), ciphertext...), tag...), sealed)
	pt, err := OpenX(key, nonce, sealed, aad)
	require.NoError(t, err)
	assert.Equal(t, sunscreen, pt)
}

// XORBlocksWords, the word-level form the proofs run symbolically, is
// Encrypt on whole blocks, counter wrap included.
func TestXORBlocksWordsIsEncrypt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, counter := range []uint32{0, 1, 0xfffffffe, rng.Uint32()} {
		var key [32]byte
		var nonce [12]byte
		text := make([]byte, 64*3)
		for _, b := range [][]byte{key[:], nonce[:], text} {
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
		}
		var state [16]U32
		state[0], state[1], state[2], state[3] = 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574
		for i := 0; i < 8; i++ {
			state[4+i] = U32(binary.LittleEndian.Uint32(key[4*i:]))
		}
		state[12] = U32(counter)
		for i := 0; i < 3; i++ {
			state[13+i] = U32(binary.LittleEndian.Uint32(nonce[4*i:]))
		}
		words := make([][16]U32, len(text)/64)
		for j := range words {
			for i := range words[j] {
				words[j][i] = U32(binary.LittleEndian.Uint32(text[64*j+4*i:]))
			}
		}
		out, next := XORBlocksWords(state, words)
		var got []byte
		for _, o := range out {
			for _, w := range o {
				got = binary.LittleEndian.AppendUint32(got, uint32(w))
			}
		}
		require.Equal(t, Encrypt(key[:], counter, nonce[:], text), got, "counter %#x", counter)
		require.Equal(t, U32(counter+3), next[12])
	}
}
