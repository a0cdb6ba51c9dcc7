//go:build valgrind && amd64 && gc && !purego && !vgsim

package cpufeat

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCTGrindDecodesADX runs ADCX and ADOX, which valgrindDecodes claims
// valgrind translates although its CPUID hides ADX: under a valgrind that
// cannot, the program dies on an unrecognised instruction. Natively it
// checks the same arithmetic on a CPU with ADX.
func TestCTGrindDecodesADX(t *testing.T) {
	if !underValgrind() && !Detected().Has(ADX) {
		t.Skip("neither valgrind nor a CPU with ADX")
	}
	x, y := adcxAdox(^uint64(0)-1, 1, 5, 6)
	assert.Equal(t, uint64(0), x, "ADCX with CF set wraps")
	assert.Equal(t, uint64(12), y, "ADOX with OF set")
	if underValgrind() {
		assert.True(t, Detected().Has(ADX), "under valgrind, detection adds ADX")
	}
}
