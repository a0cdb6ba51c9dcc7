package rsa_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/rsa"
)

// TLS 1.0 and 1.1 with a vg key: the server's certificate key is an
// *rsa.PrivateKey, its crypto.Signer and crypto.Decrypter. In these
// versions an ECDHE_RSA server signs its key exchange parameters with
// PKCS #1 v1.5 over the 36-byte MD5 || SHA-1 digest (crypto.MD5SHA1; the
// signature_algorithms extension, and with it the certificate's
// SupportedSignatureAlgorithms, is TLS 1.2's), and an RSA key exchange
// server decrypts the premaster secret with crypto/rsa's session-key
// option (PKCS1v15DecryptOptions{SessionKeyLen: 48}).
//
// Go 1.26 needs no GODEBUG setting for this, so the test sets none:
// tls10server only decides the default MinVersion of a server, and both
// sides here set MinVersion; tlsrsakex and tls3des only filter the default
// cipher suites, and both sides here list theirs; tlssha1 concerns TLS
// 1.2's signature algorithms, which TLS 1.0 and 1.1 do not negotiate.

// legacySuites are the cipher suites the TLS 1.0/1.1 server offers: CBC
// with SHA-1, the only ones those versions have, with an ECDHE_RSA key
// exchange (the server signs) and an RSA one (the server decrypts).
var legacySuites = []uint16{
	tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,
	tls.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,
	tls.TLS_RSA_WITH_AES_128_CBC_SHA,
	tls.TLS_RSA_WITH_AES_256_CBC_SHA,
}

// listenLegacy starts a TLS echo server on 127.0.0.1 whose certificate key
// is priv, accepting TLS 1.0 to 1.2 with legacySuites. It stops with the
// test.
func listenLegacy(t *testing.T, der []byte, priv *rsa.PrivateKey) (string, chan error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	config := &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: priv}},
		MinVersion:   tls.VersionTLS10,
		MaxVersion:   tls.VersionTLS12,
		CipherSuites: legacySuites,
	}
	errs := make(chan error, 4)
	go serveEcho(ln, config, errs)
	return ln.Addr().String(), errs
}

// TestTLS11Handshake handshakes with a vg key as the server's certificate
// key, on every backend: Go's crypto/tls client at TLS 1.1 (and 1.0) with
// each key exchange, then openssl s_client -tls1_1. The client verifies the
// certificate, self-signed by the vg key, and the server's signature or
// its decryption of the premaster secret; one line is echoed back over
// the connection.
func TestTLS11Handshake(t *testing.T) {
	for _, backend := range availableBackends(t) {
		priv, err := rsa.NewPrivateKey(testKey(t, 2048), rsa.WithBackend(backend))
		require.NoError(t, err)
		der := selfSigned(t, priv)
		cert, err := x509.ParseCertificate(der)
		require.NoError(t, err)
		roots := x509.NewCertPool()
		roots.AddCert(cert)

		for _, c := range []struct {
			name    string
			version uint16
			suite   uint16
		}{
			{"TLS11/ECDHE-RSA-signs-MD5SHA1", tls.VersionTLS11, tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA},
			{"TLS11/RSA-decrypts-session-key", tls.VersionTLS11, tls.TLS_RSA_WITH_AES_256_CBC_SHA},
			{"TLS10/ECDHE-RSA-signs-MD5SHA1", tls.VersionTLS10, tls.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA},
			{"TLS10/RSA-decrypts-session-key", tls.VersionTLS10, tls.TLS_RSA_WITH_AES_128_CBC_SHA},
		} {
			t.Run(backend+"/"+c.name, func(t *testing.T) {
				addr, errs := listenLegacy(t, der, priv)
				cfg := &tls.Config{
					MinVersion:   c.version,
					MaxVersion:   c.version,
					CipherSuites: []uint16{c.suite},
					RootCAs:      roots,
					ServerName:   "127.0.0.1",
				}
				st := dialEcho(t, addr, cfg)
				require.Equal(t, c.version, st.Version)
				require.Equal(t, c.suite, st.CipherSuite)
				require.NoError(t, <-errs)
			})
		}

		t.Run(backend+"/openssl", func(t *testing.T) {
			testOpenSSLClientTLS11(t, der, priv)
		})
	}
}

// testOpenSSLClientTLS11 runs openssl s_client -tls1_1 against the server,
// with an ECDHE_RSA and an RSA key exchange. OpenSSL 3 refuses TLS 1.1 (and
// its MD5 || SHA-1 signatures) at its default security level, so the
// cipher string lowers it to 0 for the one connection; the certificate is
// still verified (-verify_return_error).
func testOpenSSLClientTLS11(t *testing.T, der []byte, priv *rsa.PrivateKey) {
	bin, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl is not on PATH: skipping the openssl s_client peer (ci/test installs it)")
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	for _, c := range []struct {
		name, cipher, want string
	}{
		{"TLS11/ECDHE-RSA", "ECDHE-RSA-AES128-SHA@SECLEVEL=0", "ECDHE-RSA-AES128-SHA"},
		{"TLS11/RSA", "AES256-SHA@SECLEVEL=0", "AES256-SHA"},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr, errs := listenLegacy(t, der, priv)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			// Without -quiet, s_client prints the session (protocol and
			// cipher) before the echoed line.
			cmd := exec.CommandContext(ctx, bin, "s_client", "-connect", addr, "-CAfile", caFile,
				"-verify_return_error", "-verify_ip", "127.0.0.1", "-ign_eof",
				"-tls1_1", "-cipher", c.cipher)
			cmd.Stdin = strings.NewReader("hello openssl\n")
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "openssl output:\n%s", out)
			require.Contains(t, string(out), "HELLO OPENSSL", "openssl output:\n%s", out)
			require.Contains(t, string(out), "Protocol  : TLSv1.1", "openssl output:\n%s", out)
			require.Contains(t, string(out), "Cipher    : "+c.want, "openssl output:\n%s", out)
			require.Contains(t, string(out), "Verify return code: 0 (ok)", "openssl output:\n%s", out)
			select {
			case err := <-errs:
				require.NoError(t, err)
			case <-ctx.Done():
				t.Fatal("server did not finish")
			}
		})
	}
}
