package chacha20poly1305

import (
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeyStatePointers guards newKey's argument for allocating a key
// without pointers: keyState's only fields that hold pointers are the ones
// it accounts for (the handle and impl, into the keyState itself). A field added with a pointer to anything else must be
// allocated with its type, not as words.
func TestKeyStatePointers(t *testing.T) {
	var hasPointers func(reflect.Type) bool
	hasPointers = func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.Array:
			return hasPointers(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if hasPointers(t.Field(i).Type) {
					return true
				}
			}
			return false
		case reflect.Pointer, reflect.UnsafePointer, reflect.Interface, reflect.String, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func:
			return true
		}
		return false
	}
	var ptrs []string
	for f := range reflect.TypeFor[keyState]().Fields() {
		if hasPointers(f.Type) {
			ptrs = append(ptrs, f.Name)
		}
	}
	assert.Equal(t, []string{"handle", "impl"}, ptrs)
	// newKey copies the fields after the key as words, and the 64-byte
	// size class is the point of holding the backend as an index.
	assert.Zero(t, unsafe.Offsetof(keyState{}.key))
	assert.Equal(t, uintptr(64), unsafe.Sizeof(keyState{}))
	for _, reg := range registry.Registrations() {
		k := reg.Value(make([]byte, KeySize), false)
		assert.Equal(t, unsafe.Pointer(k.state()), reflect.ValueOf(k).UnsafePointer(), "%s: the key type is its keyState", reg.Name)
	}
}

// TestOpenTagApart calls every backend's open with the tag in memory of
// its own, not after the ciphertext as the AEAD's Open passes it (the
// stdlib backend then runs the generic drivers): the verdict and the
// plaintext are the same.
func TestOpenTagApart(t *testing.T) {
	forEachBackend(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			a, err := newAEAD(make([]byte, KeySize), x, []Option{WithBackend(name)})
			require.NoError(t, err)
			k := a.k
			nonce := make([]byte, k.nonceSize())
			for _, n := range []int{0, 1, 64, 300} {
				pt := make([]byte, n)
				for i := range pt {
					pt[i] = byte(i)
				}
				sealed := a.Seal(nil, nonce, pt, []byte("ad"))
				text := slices.Clone(sealed[:n])
				tag := [TagSize]byte(sealed[n:])
				out := make([]byte, n)
				require.True(t, k.impl.open(out, nonce, text, &tag, []byte("ad")), "n=%d", n)
				assert.Equal(t, pt, out)
				tag[0] ^= 1
				assert.False(t, k.impl.open(out, nonce, text, &tag, []byte("ad")), "n=%d", n)
			}
		}
	})
}
