package rsa_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
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

// selfSigned makes a certificate for 127.0.0.1 signed by priv itself.
func selfSigned(t *testing.T, priv *rsa.PrivateKey) []byte {
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "vg rsa test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, priv.Public(), priv)
	require.NoError(t, err)
	return der
}

// serveEcho accepts connections on ln, handshakes with config, and echoes
// one line back in upper case, until ln closes.
func serveEcho(ln net.Listener, config *tls.Config, errs chan<- error) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			c.SetDeadline(time.Now().Add(20 * time.Second))
			tc := tls.Server(c, config)
			defer tc.Close() // sends close_notify
			if err := tc.Handshake(); err != nil {
				errs <- err
				return
			}
			line, err := bufio.NewReader(tc).ReadString('\n')
			if err != nil {
				errs <- err
				return
			}
			_, err = io.WriteString(tc, strings.ToUpper(line))
			errs <- err
		}()
	}
}

func TestTLSHandshake(t *testing.T) {
	for _, backend := range availableBackends(t) {
		priv, err := rsa.NewPrivateKey(testKey(t, 2048), rsa.WithBackend(backend))
		require.NoError(t, err)
		der := selfSigned(t, priv)
		cert, err := x509.ParseCertificate(der)
		require.NoError(t, err)
		require.NoError(t, cert.CheckSignatureFrom(cert), "the self-signature made by the vg key")

		roots := x509.NewCertPool()
		roots.AddCert(cert)

		cases := []struct {
			name   string
			config *tls.Config
			scheme tls.SignatureScheme
		}{
			{"TLS13/PSS-SHA256", &tls.Config{MinVersion: tls.VersionTLS13}, tls.PSSWithSHA256},
			{"TLS13/PSS-SHA384", &tls.Config{MinVersion: tls.VersionTLS13}, tls.PSSWithSHA384},
			{"TLS12/PSS-SHA256", &tls.Config{MaxVersion: tls.VersionTLS12,
				CipherSuites: []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}}, tls.PSSWithSHA256},
			{"TLS12/PKCS1v15-SHA256", &tls.Config{MaxVersion: tls.VersionTLS12,
				CipherSuites: []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}}, tls.PKCS1WithSHA256},
			{"TLS12/PKCS1v15-SHA384", &tls.Config{MaxVersion: tls.VersionTLS12,
				CipherSuites: []uint16{tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256}}, tls.PKCS1WithSHA384},
		}
		for _, c := range cases {
			t.Run(backend+"/"+c.name, func(t *testing.T) {
				// The certificate allows exactly one signature scheme, so
				// the handshake succeeds only if the vg key signs with it.
				addr, errs := listen(t, der, priv, c.scheme)
				cfg := c.config.Clone()
				cfg.RootCAs = roots
				cfg.ServerName = "127.0.0.1"
				st := dialEcho(t, addr, cfg)
				if c.config.MinVersion == tls.VersionTLS13 {
					require.Equal(t, uint16(tls.VersionTLS13), st.Version)
				} else {
					require.Equal(t, uint16(tls.VersionTLS12), st.Version)
				}
				require.NoError(t, <-errs)
			})
		}

		t.Run(backend+"/openssl", func(t *testing.T) {
			testOpenSSLClient(t, der, priv)
		})
	}
}

// testOpenSSLClient runs openssl s_client against the server, for TLS 1.3
// and TLS 1.2 with PSS and PKCS #1 v1.5 signature algorithms.
func testOpenSSLClient(t *testing.T, der []byte, priv *rsa.PrivateKey) {
	bin, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl is not on PATH: skipping the openssl s_client peer")
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	for _, c := range []struct {
		name   string
		args   []string
		scheme tls.SignatureScheme
	}{
		{"TLS13/PSS", []string{"-tls1_3", "-sigalgs", "rsa_pss_rsae_sha256"}, tls.PSSWithSHA256},
		{"TLS12/PSS", []string{"-tls1_2", "-sigalgs", "rsa_pss_rsae_sha256"}, tls.PSSWithSHA256},
		{"TLS12/PKCS1v15", []string{"-tls1_2", "-sigalgs", "RSA+SHA256"}, tls.PKCS1WithSHA256},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr, errs := listen(t, der, priv, c.scheme)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			args := append([]string{"s_client", "-connect", addr, "-CAfile", caFile,
				"-verify_return_error", "-verify_ip", "127.0.0.1", "-quiet", "-ign_eof"}, c.args...)
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Stdin = strings.NewReader("hello openssl\n")
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "openssl output:\n%s", out)
			require.Contains(t, string(out), "HELLO OPENSSL")
			select {
			case err := <-errs:
				require.NoError(t, err)
			case <-ctx.Done():
				t.Fatal("server did not finish")
			}
		})
	}
}

// listen starts a TLS echo server on 127.0.0.1 whose certificate key is
// priv, restricted to one signature scheme. It stops with the test.
func listen(t *testing.T, der []byte, priv *rsa.PrivateKey, scheme tls.SignatureScheme) (string, chan error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	config := &tls.Config{
		Certificates: []tls.Certificate{{
			Certificate:                  [][]byte{der},
			PrivateKey:                   priv,
			SupportedSignatureAlgorithms: []tls.SignatureScheme{scheme},
		}},
		MinVersion: tls.VersionTLS12,
	}
	errs := make(chan error, 4)
	go serveEcho(ln, config, errs)
	return ln.Addr().String(), errs
}

// dialEcho connects to the echo server at addr with cfg, checks that a
// line comes back upper-cased, and returns the connection's state.
func dialEcho(t *testing.T, addr string, cfg *tls.Config) tls.ConnectionState {
	t.Helper()
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := tls.DialWithDialer(&d, "tcp", addr, cfg)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(20*time.Second)))
	_, err = io.WriteString(conn, "hello vg\n")
	require.NoError(t, err)
	line, err := bufio.NewReader(conn).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "HELLO VG\n", line)
	return conn.ConnectionState()
}
