//go:build valgrind && amd64 && !purego

package rsa

import "testing"

func ctgrindBackendSecrets(t *testing.T, c keyImpl) [][]uint64 {
	switch a := c.(type) {
	case *keyADX:
		return [][]uint64{a.dp, a.dq, a.p.m, a.q.m, a.p.rr, a.q.rr, a.p.one, a.q.one}
	case *keyIFMA: // valgrind has no AVX-512: run on the model (ci/cmd/ctgrind)
		return [][]uint64{a.dp, a.dq, a.p.m, a.q.m, a.p.m64, a.q.m64, a.p.rr, a.q.rr}
	}
	t.Fatalf("no secrets known for %T", c)
	return nil
}
