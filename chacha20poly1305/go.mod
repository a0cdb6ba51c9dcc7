module github.com/vgcrypto/vg/chacha20poly1305

go 1.26
