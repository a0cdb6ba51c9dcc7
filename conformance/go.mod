module github.com/vgcrypto/vg/conformance

go 1.26

require github.com/stretchr/testify v1.12.1

require (
	github.com/vgcrypto/vg/aesgcm v0.0.0
	github.com/vgcrypto/vg/chacha20poly1305 v0.0.0
	github.com/vgcrypto/vg/rsa v0.0.0
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

replace github.com/vgcrypto/vg/chacha20poly1305 => ../chacha20poly1305

replace github.com/vgcrypto/vg/rsa => ../rsa

replace github.com/vgcrypto/vg/aesgcm => ../aesgcm
