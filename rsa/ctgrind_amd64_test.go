//go:build valgrind && amd64 && !purego

package rsa

import "testing"

func ctgrindBackendSecrets(t *testing.T, c crtExp) [][]uint64 {
	a, ok := c.(*adxCRT)
	if !ok {
		t.Fatalf("no secrets known for %T", c)
	}
	return [][]uint64{a.dp, a.dq, a.p.m, a.q.m, a.p.rr, a.q.rr, a.p.one, a.q.one}
}
