module github.com/vgcrypto/vg/asmgen/x86sim

go 1.26.0

require github.com/vgcrypto/vg/internal v0.1.1

replace github.com/vgcrypto/vg/internal => ../../internal
