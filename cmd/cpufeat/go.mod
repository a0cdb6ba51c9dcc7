module github.com/vgcrypto/vg/cmd/cpufeat

go 1.26.0

require (
	github.com/stretchr/testify v1.12.1
	github.com/vgcrypto/vg/aesgcm v0.1.26
	github.com/vgcrypto/vg/chacha20poly1305 v0.1.24
	github.com/vgcrypto/vg/cpufeat v0.2.3
	github.com/vgcrypto/vg/rsa v0.1.26
)

require (
	github.com/vgcrypto/vg/internal v0.3.1 // indirect
	github.com/vgcrypto/vg/stackscratch v0.2.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/crypto v0.59.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace (
	github.com/vgcrypto/vg/aesgcm => ../../aesgcm
	github.com/vgcrypto/vg/asmgen/x86sim => ../../asmgen/x86sim
	github.com/vgcrypto/vg/chacha20poly1305 => ../../chacha20poly1305
	github.com/vgcrypto/vg/cpufeat => ../../cpufeat
	github.com/vgcrypto/vg/internal => ../../internal
	github.com/vgcrypto/vg/rsa => ../../rsa
	github.com/vgcrypto/vg/stackscratch => ../../stackscratch
)
