module github.com/vgcrypto/vg/chacha20poly1305/_asm

go 1.26.0

require (
	github.com/mmcloughlin/avo v0.6.0
	github.com/vgcrypto/vg/asmgen v0.0.0
	github.com/vgcrypto/vg/cpufeat v0.2.3
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace (
	github.com/vgcrypto/vg/asmgen => ../../asmgen
	github.com/vgcrypto/vg/cpufeat => ../../cpufeat
	github.com/vgcrypto/vg/stackscratch => ../../stackscratch
)
