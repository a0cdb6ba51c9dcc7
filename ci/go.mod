module github.com/vgcrypto/vg/ci

go 1.26
