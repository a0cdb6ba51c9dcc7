module github.com/vgcrypto/vg/ci

go 1.26.0

require (
	github.com/stretchr/testify v1.12.1
	github.com/vgcrypto/vg/aesgcm v0.1.26
	github.com/vgcrypto/vg/chacha20poly1305 v0.1.24
	github.com/vgcrypto/vg/cpufeat v0.2.3
	github.com/vgcrypto/vg/rsa v0.1.26
	github.com/vgcrypto/vg/stackscratch v0.2.0
	golang.org/x/exp v0.0.0-20261014143641-f0251eb4aa3e
	golang.org/x/mod v0.42.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/sync v0.24.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/vgcrypto/vg/internal v0.3.1 // indirect
	golang.org/x/crypto v0.59.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/telemetry v0.0.0-20261009151841-97e8ea77aa2a // indirect
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/vgcrypto/vg/asmgen/x86sim v0.10.0
	go.yaml.in/yaml/v3 v3.0.6 // indirect
)

replace github.com/vgcrypto/vg/asmgen/x86sim => ../asmgen/x86sim

replace (
	github.com/vgcrypto/vg/aesgcm => ../aesgcm
	github.com/vgcrypto/vg/chacha20poly1305 => ../chacha20poly1305
	github.com/vgcrypto/vg/cpufeat => ../cpufeat
	github.com/vgcrypto/vg/internal => ../internal
	github.com/vgcrypto/vg/rsa => ../rsa
	github.com/vgcrypto/vg/stackscratch => ../stackscratch
)

tool golang.org/x/tools/cmd/deadcode
