package rsa

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/cpufeat"
)

// secretWords returns every uint64 and every []uint64 reachable from v
// (through pointers, interfaces, structs and slices, each pointer once), as
// addressable values that read the memory live. Reached from a
// PrivateKey's secret state, that is every secret number in every form
// the backends keep, whatever their field names: a field added later is
// covered without naming it here.
func secretWords(v reflect.Value, seen map[uintptr]bool) (words []reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return nil
		}
		seen[v.Pointer()] = true
		return secretWords(v.Elem(), seen)
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return secretWords(v.Elem(), seen)
	case reflect.Struct:
		for i := range v.NumField() {
			words = append(words, secretWords(v.Field(i), seen)...)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint64 {
			return []reflect.Value{v}
		}
		for i := range v.Len() {
			words = append(words, secretWords(v.Index(i), seen)...)
		}
	case reflect.Uint64:
		return []reflect.Value{v}
	}
	return words
}

// nonZeroWords counts the nonzero words among words, and all of them.
func nonZeroWords(words []reflect.Value) (nonzero, total int) {
	for _, w := range words {
		if w.Kind() == reflect.Uint64 {
			total++
			if w.Uint() != 0 {
				nonzero++
			}
			continue
		}
		for i := range w.Len() {
			total++
			if w.Index(i).Uint() != 0 {
				nonzero++
			}
		}
	}
	return nonzero, total
}

// TestWipeZeroesSecrets: Wipe leaves no nonzero word in the key's secret
// state, in any backend's representation (generic limbs; adx's kernel-width
// copies; ifma's digits, limbs and k0; adx under ifma for primes above its
// kernels), while the public key keeps its values.
func TestWipeZeroesSecrets(t *testing.T) {
	sizes := []string{"1024", "2048", "3072", "4096"}
	switch {
	case cpufeat.Simulated(): // a Fermat test per key, slow on the model
		sizes = sizes[:2]
	case !testing.Short():
		sizes = append(sizes, "8192")
	}
	for _, b := range Backends() {
		if !b.Available {
			continue
		}
		for _, bits := range sizes {
			t.Run(b.Name+"/"+bits, func(t *testing.T) {
				priv, err := NewPrivateKey(loadKey(t, bits), WithBackend(b.Name))
				require.NoError(t, err)
				words := secretWords(reflect.ValueOf(priv.sk), map[uintptr]bool{})
				nonzero, total := nonZeroWords(words)
				w := priv.sk.w
				// At least p, q, their R² and R and q^-1 (w limbs each), and
				// the backend's dp and dq.
				require.GreaterOrEqual(t, total, 9*w, "the walk missed secrets")
				require.Greater(t, nonzero, total/2, "before Wipe")
				pubBefore := fmt.Sprint(priv.pub.n.m)

				priv.Wipe()
				nonzero, total = nonZeroWords(words)
				require.Zero(t, nonzero, "nonzero words among the %d of the secret state after Wipe", total)
				require.True(t, priv.sk.wiped.Load())
				require.Equal(t, pubBefore, fmt.Sprint(priv.pub.n.m), "the public modulus was wiped")
			})
		}
	}
}
