package peers

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/rsa"
	"golang.org/x/perf/benchfmt"
)

// RequireEnv lists peers (comma-separated) that TestPeers must find built;
// ci/test sets it to openssl after installing libssl-dev. BoringSSL and
// AWS-LC are required whenever the peers folder exists.
const RequireEnv = "VG_PEERS_REQUIRE"

func repoRoot(t *testing.T) string {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.work"))
	return root
}

// expectedNames are the harness's benchmarks for peer p: vg's benchmark
// names (aesgcm/bench_test.go, chacha20poly1305/bench_test.go,
// rsa/bench_test.go) with p as the last element, at the sizes.
func expectedNames(p string) map[string][]string {
	sizes := []int{16, 64, 256, 512, 1350, 4096, 16384}
	names := map[string][]string{}
	add := func(pkg, format string, args ...any) {
		pkg = "github.com/vgcrypto/vg/" + pkg
		names[pkg] = append(names[pkg], fmt.Sprintf(format, args...)+"/"+p)
	}
	for _, op := range []string{"Seal", "Open"} {
		for _, k := range []string{"AES-128", "AES-256"} {
			for _, n := range sizes {
				add("aesgcm", "Benchmark%s/%s/%d", op, k, n)
			}
		}
	}
	for _, k := range []string{"AES-128", "AES-256"} {
		for _, n := range sizes {
			add("aesgcm", "BenchmarkSealGather/%s/%d", k, n)
		}
	}
	for _, k := range []string{"AES-128", "AES-256"} {
		add("aesgcm", "BenchmarkNew/%s", k)
	}
	for _, op := range []string{"Seal", "Open"} {
		for _, n := range sizes {
			add("chacha20poly1305", "Benchmark%s/%d", op, n)
		}
	}
	for _, n := range sizes {
		add("chacha20poly1305", "BenchmarkSealGather/%d", n)
	}
	add("chacha20poly1305", "BenchmarkNew")
	for _, c := range []string{"Sign/PSS-SHA256", "Sign/PKCS1v15-SHA256", "Decrypt/PKCS1v15", "Decrypt/OAEP-SHA256"} {
		for _, bits := range []int{2048, 3072, 4096} {
			add("rsa", "Benchmark%s/%d", c, bits)
		}
	}
	for _, bits := range []int{2048, 3072, 4096, 8192} {
		add("rsa", "BenchmarkVerify/PKCS1v15-SHA256/%d", bits)
	}
	return names
}

// TestPeers builds the harness against every peer present, runs each of
// its benchmarks once (not a timing: -benchtime 1x) and checks each peer's
// output on fixed inputs against vg's: AEAD ciphertexts and tags equal,
// vg's ciphertexts opened, PKCS #1 v1.5 signatures equal, PSS signatures
// verified both ways, vg's OAEP and PKCS #1 v1.5 ciphertexts decrypted.
// With VG_PEERS_DIR pointing at a folder that does not exist, BoringSSL and
// AWS-LC are skipped with a note, as in a checkout without ../shared/peers.
func TestPeers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the C harness against every peer (about 10 s); not in -short")
	}
	root := repoRoot(t)
	ctx := context.Background()
	dir := DefaultDir(root)
	bins, notes, err := Build(ctx, Options{Root: root, Out: t.TempDir()})
	require.NoError(t, err)
	for _, n := range notes {
		t.Log(n)
	}
	built := map[string]*Binary{}
	for _, b := range bins {
		built[b.Name] = b
		t.Logf("%s: %s", b.Name, b.Provenance)
	}
	var required []string
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		required = append(required, BoringSSL, AWSLC)
	} else {
		assert.NotContains(t, built, BoringSSL)
		assert.NotContains(t, built, AWSLC)
		require.NotEmpty(t, notes)
		assert.Contains(t, notes[0], "boringssl and awslc skipped: "+dir+" does not exist")
		assert.Equal(t, 1, strings.Count(notes[0], "\n")+1, "one line")
	}
	for _, p := range strings.Split(os.Getenv(RequireEnv), ",") {
		if p = strings.TrimSpace(p); p != "" {
			required = append(required, p)
		}
	}
	for _, p := range required {
		require.Contains(t, built, p, "%s is required here (notes: %q)", p, notes)
	}
	if len(bins) == 0 {
		t.Skip("no peer present")
	}
	for _, b := range bins {
		t.Run(b.Name, func(t *testing.T) {
			assert.Regexp(t, `AES-GCM .+; ChaCha20-Poly1305 .+; RSA .+`, b.Provenance)
			t.Run("benchmarks", func(t *testing.T) { checkBenchmarks(t, b) })
			t.Run("aead", func(t *testing.T) { checkAEADs(t, b) })
			t.Run("rsa", func(t *testing.T) { checkRSA(t, b, root) })
		})
	}
}

// checkBenchmarks lists the binary's benchmarks, compares them with vg's
// names, and runs each once.
func checkBenchmarks(t *testing.T, b *Binary) {
	ctx := context.Background()
	list, err := b.List(ctx)
	require.NoError(t, err)
	got := map[string][]string{}
	var names []string
	for _, bm := range list {
		got[bm.Pkg] = append(got[bm.Pkg], bm.Name)
		names = append(names, bm.Name)
	}
	assert.Equal(t, expectedNames(b.Name), got)

	cmd := exec.CommandContext(ctx, b.Path, b.Args("1x", names)...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	assert.Equal(t, 1, bytes.Count(out, []byte("# peer "+b.Name+": ")), "one provenance line")
	rd := benchfmt.NewReader(bytes.NewReader(out), b.Name)
	seen := map[string]bool{}
	for rd.Scan() {
		switch r := rd.Result().(type) {
		case *benchfmt.Result:
			name := "Benchmark" + r.Name.String()
			assert.Contains(t, got[r.GetConfig("pkg")], name, "pkg %s", r.GetConfig("pkg"))
			assert.Equal(t, 1, r.Iters, name)
			ns, ok := r.Value("sec/op")
			assert.True(t, ok && ns > 0, "%s: %v", name, r.Values)
			seen[name] = true
		case *benchfmt.SyntaxError:
			t.Errorf("%v", r)
		}
	}
	require.NoError(t, rd.Err())
	assert.Len(t, seen, len(names), "every benchmark reports one result")
}

// AEAD inputs: a fixed key, nonce and 13-byte AAD, and plaintexts of a few
// lengths (the empty one, one block, a TLS-sized record, an odd tail).
func aeadRequests(t *testing.T) (requests, want []string) {
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(7*i + 1)
	}
	nonce := []byte("vg nonce 12b")
	aad := []byte("vg aad 13 byt")
	require.Len(t, nonce, 12)
	require.Len(t, aad, 13)
	h := func(b []byte) string {
		if len(b) == 0 {
			return "-"
		}
		return hex.EncodeToString(b)
	}
	for _, alg := range []string{"aes-128-gcm", "aes-256-gcm", "chacha20-poly1305"} {
		k := key
		var a interface {
			Seal(dst, nonce, plaintext, additionalData []byte) []byte
		}
		var err error
		switch alg {
		case "aes-128-gcm":
			k = key[:16]
			a, err = aesgcm.New(k)
		case "aes-256-gcm":
			a, err = aesgcm.New(k)
		default:
			a, err = chacha20poly1305.New(k)
		}
		require.NoError(t, err)
		for _, n := range []int{0, 16, 1351, 100} {
			pt := make([]byte, n)
			for i := range pt {
				pt[i] = byte(i * 13)
			}
			ct := a.Seal(nil, nonce, pt, aad)
			requests = append(requests, strings.Join([]string{"seal", alg, h(k), h(nonce), h(aad), h(pt)}, " "))
			want = append(want, "ok "+hex.EncodeToString(ct))
			requests = append(requests, strings.Join([]string{"open", alg, h(k), h(nonce), h(aad), h(ct)}, " "))
			want = append(want, strings.TrimSpace("ok "+hex.EncodeToString(pt)))
			bad := slices.Clone(ct)
			bad[len(bad)-1] ^= 1
			requests = append(requests, strings.Join([]string{"open", alg, h(k), h(nonce), h(aad), h(bad)}, " "))
			want = append(want, "fail")
		}
		requests = append(requests, "new "+alg+" "+h(k))
		want = append(want, "ok")
	}
	return requests, want
}

func checkAEADs(t *testing.T, b *Binary) {
	requests, want := aeadRequests(t)
	got, err := b.Check(context.Background(), requests)
	require.NoError(t, err)
	for i := range requests {
		assert.Equal(t, want[i], got[i], "request %q", requests[i])
	}
}

func checkRSA(t *testing.T, b *Binary, root string) {
	digest := sha256.Sum256([]byte("vg peers smoke check"))
	msg := []byte("a 32-byte key for the peer check")
	var requests []string
	type expect struct {
		want   string                 // the exact answer, or
		verify func(sig []byte) error // a check of the signature it carries
	}
	var expects []expect
	pss := &stdrsa.PSSOptions{Hash: crypto.SHA256, SaltLength: stdrsa.PSSSaltLengthEqualsHash}
	for _, bits := range []int{2048, 3072, 4096} {
		pem, err := os.ReadFile(filepath.Join(KeysDir(root), fmt.Sprintf("rsa%d.pem", bits)))
		require.NoError(t, err)
		priv, err := rsa.ParsePEMPrivateKey(pem)
		require.NoError(t, err)
		pub := priv.Public().(*stdrsa.PublicKey)
		d := hex.EncodeToString(digest[:])

		pkcs1, err := priv.Sign(rand.Reader, digest[:], crypto.SHA256)
		require.NoError(t, err)
		requests = append(requests, fmt.Sprintf("sign-pkcs1 %d %s", bits, d))
		expects = append(expects, expect{want: "ok " + hex.EncodeToString(pkcs1)})
		requests = append(requests, fmt.Sprintf("verify-pkcs1 %d %s %x", bits, d, pkcs1))
		expects = append(expects, expect{want: "ok"})

		vgPSS, err := priv.Sign(rand.Reader, digest[:], pss)
		require.NoError(t, err)
		requests = append(requests, fmt.Sprintf("verify-pss %d %s %x", bits, d, vgPSS))
		expects = append(expects, expect{want: "ok"})
		vgPSS[len(vgPSS)/2] ^= 0x40
		requests = append(requests, fmt.Sprintf("verify-pss %d %s %x", bits, d, vgPSS))
		expects = append(expects, expect{want: "fail"})
		requests = append(requests, fmt.Sprintf("sign-pss %d %s", bits, d))
		expects = append(expects, expect{verify: func(sig []byte) error {
			return rsa.VerifyPSS(pub, crypto.SHA256, digest[:], sig, pss)
		}})

		oaep, err := rsa.EncryptOAEP(rand.Reader, pub, crypto.SHA256, msg, nil)
		require.NoError(t, err)
		requests = append(requests, fmt.Sprintf("decrypt-oaep %d %x", bits, oaep))
		expects = append(expects, expect{want: "ok " + hex.EncodeToString(msg)})
		v15, err := rsa.EncryptPKCS1v15(rand.Reader, pub, msg)
		require.NoError(t, err)
		requests = append(requests, fmt.Sprintf("decrypt-pkcs1 %d %x", bits, v15))
		expects = append(expects, expect{want: "ok " + hex.EncodeToString(msg)})
		oaep[len(oaep)-1] ^= 1
		requests = append(requests, fmt.Sprintf("decrypt-oaep %d %x", bits, oaep))
		expects = append(expects, expect{want: "fail"})
	}
	got, err := b.Check(context.Background(), requests)
	require.NoError(t, err)
	for i, e := range expects {
		if e.verify == nil {
			assert.Equal(t, e.want, got[i], "request %q", requests[i])
			continue
		}
		sigHex, ok := strings.CutPrefix(got[i], "ok ")
		if !assert.True(t, ok, "request %q: %q", requests[i], got[i]) {
			continue
		}
		sig, err := hex.DecodeString(sigHex)
		require.NoError(t, err)
		assert.NoError(t, e.verify(sig), "vg verifies the peer's PSS signature (%q)", requests[i])
	}
}

func TestMatcher(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		name    string
		want    bool
	}{
		{".", "BenchmarkSeal/AES-128/16/boringssl", true},
		{"Seal", "BenchmarkSeal/AES-128/16/boringssl", true},
		{"Seal", "BenchmarkSealGather/16/boringssl", true},
		{"^BenchmarkSeal$", "BenchmarkSealGather/16/boringssl", false},
		{"^Benchmark(Seal|Open)$/AES-(128|256)/", "BenchmarkOpen/AES-256/1350/awslc", true},
		{"^Benchmark(Seal|Open)$/AES-(128|256)/", "BenchmarkSealGather/AES-256/1350/awslc", false},
		{"^Benchmark(Seal|Open)$/AES-(128|256)/(16|1350)/", "BenchmarkSeal/AES-128/1350/openssl", true},
		{"^Benchmark(Seal|Open)$/AES-(128|256)/(16|1350)/", "BenchmarkSeal/AES-128/16384/openssl", true}, // unanchored, as in Go
		{"^Benchmark(Seal|Open)$/AES-(128|256)/^(16|1350)$/", "BenchmarkSeal/AES-128/16384/openssl", false},
		{"Seal/(16|64)$", "BenchmarkSeal/16/openssl", true},
		{"Seal/(16|64)$", "BenchmarkSeal/160/openssl", false},
		{"Seal/AES-128/16/x/y", "BenchmarkSeal/AES-128/16/x", false}, // deeper than the name
		{"New/[a-z/]+", "BenchmarkNew/boringssl", true},              // the slash in the class does not split
		{`Sign/PSS\/x`, "BenchmarkSign/PSS/x", false},                // an escaped slash does not split
		{"Sign/(PSS|PKCS1v15)-SHA256/2048/", "BenchmarkSign/PKCS1v15-SHA256/2048/awslc", true},
		{"Verify//8192", "BenchmarkVerify/PKCS1v15-SHA256/8192/awslc", true},
	} {
		m, err := NewMatcher(tc.pattern)
		require.NoError(t, err, tc.pattern)
		assert.Equal(t, tc.want, m.Match(tc.name), "%q %q", tc.pattern, tc.name)
	}
	assert.Equal(t, []string{"a", "(b/c)", "[/]", `\/d`}, splitPattern(`a/(b/c)/[/]/\/d`))
	assert.Equal(t, []string{"[]/]", "x"}, splitPattern(`[]/]/x`))
	_, err := NewMatcher("a/(")
	assert.Error(t, err)
	_, err = NewMatcher("")
	assert.Error(t, err)
}

func TestPinnedSource(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("| folder | project | commit |\n| --- | --- | --- |\n"+
		"| `boringssl/` | BoringSSL | a0689af29e8e460f1e5380e0fb74cef1b342e810 (2026-08-21) | cmake |\n"+
		"| `aws-lc/` | AWS-LC | 3bda7bae9f04661d731d6bed7dac0bdb26137d1a | cmake |\n"), 0o644))
	assert.Equal(t, "a0689af29e8e (2026-08-21)", pinnedSource(dir, "boringssl"))
	assert.Equal(t, "3bda7bae9f04", pinnedSource(dir, "aws-lc"))
	assert.Contains(t, pinnedSource(dir, "other"), "not recorded")
	assert.Contains(t, pinnedSource(t.TempDir(), "boringssl"), "no README.md")
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(DirEnv, "")
	assert.Equal(t, filepath.FromSlash("/x/shared/peers"), DefaultDir("/x/main"))
	t.Setenv(DirEnv, "/elsewhere")
	assert.Equal(t, "/elsewhere", DefaultDir("/x/main"))
}
