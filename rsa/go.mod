module github.com/vgcrypto/vg/rsa

go 1.26
