module github.com/vgcrypto/vg/asmgen/x86sim

go 1.26.0
