package chacha20poly1305

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
)

// TestInvalidOverride runs this test binary again with an invalid
// VG_CPU_FEATURES and checks, in the child, that New and NewX return
// cpufeat's error instead of a key.
func TestInvalidOverride(t *testing.T) {
	if os.Getenv("VG_CHACHA_OVERRIDE_CHILD") == "1" {
		require.Error(t, cpufeat.Err())
		_, err := New(make([]byte, KeySize))
		assert.Equal(t, cpufeat.Err(), err)
		_, err = NewX(make([]byte, KeySize), WithBackend("generic"))
		assert.Equal(t, cpufeat.Err(), err)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestInvalidOverride$", "-test.count=1")
	cmd.Env = append(os.Environ(), "VG_CHACHA_OVERRIDE_CHILD=1", cpufeat.EnvVar+"=avx2,not-a-feature")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "child:\n%s", out)
	assert.Contains(t, string(out), "PASS")
}
