package stackscratch_test

import (
	"fmt"

	"github.com/vgcrypto/vg/stackscratch"
)

// schedule holds a key in a local array and wipes it before returning.
func schedule(key []byte) (sum byte) {
	var tmp [32]byte
	copy(tmp[:], key)
	for _, b := range tmp[:] { // ranging over tmp itself would copy the array
		sum += b
	}
	stackscratch.Wipe(tmp[:])
	return sum
}

func ExampleScan() {
	key := []byte("an example key of thirty-two by!")
	r, err := stackscratch.Scan(func() { schedule(key) }, stackscratch.Windows(8, key))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("clean:", r.Clean())
	// Output: clean: true
}

func ExampleWipe() {
	roundKeys := make([]byte, 176)
	// ... expand and use the key schedule ...
	stackscratch.Wipe(roundKeys)
	fmt.Println(roundKeys[0], roundKeys[175])
	// Output: 0 0
}
