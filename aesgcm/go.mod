module github.com/vgcrypto/vg/aesgcm

go 1.26
