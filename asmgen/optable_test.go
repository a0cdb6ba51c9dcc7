package asmgen

import (
	"reflect"
	"sort"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/stretchr/testify/assert"
)

// TestOpTableNamesAreAvoInstructions checks that every opcode of the
// constant-time table is an instruction avo can emit, so a typo cannot hide
// an opcode the checker then never sees.
func TestOpTableNamesAreAvoInstructions(t *testing.T) {
	ctx := reflect.TypeOf(build.NewContext())
	var missing []string
	for op := range opTable {
		if _, ok := ctx.MethodByName(op); !ok {
			missing = append(missing, op)
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "opcodes in opTable that avo does not define")
}
