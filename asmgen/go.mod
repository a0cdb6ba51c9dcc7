module github.com/vgcrypto/vg/asmgen

go 1.26
