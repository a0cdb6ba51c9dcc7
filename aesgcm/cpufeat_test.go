package aesgcm_test

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/cpufeat"
)

// New returns cpufeat.Err() under an invalid VG_CPU_FEATURES. The variable
// is read at start-up, so the check runs in a child process.
func TestNewInvalidOverride(t *testing.T) {
	if os.Getenv("VG_AESGCM_CHILD") == "1" {
		_, err := aesgcm.New(make([]byte, 16))
		require.Error(t, err)
		require.Equal(t, cpufeat.Err(), err)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNewInvalidOverride$")
	cmd.Env = append(os.Environ(), "VG_AESGCM_CHILD=1", cpufeat.EnvVar+"=avx2,notafeature")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}
