module github.com/vgcrypto/vg/asmgen

go 1.26.0

require github.com/vgcrypto/vg/cpufeat v0.2.3

replace github.com/vgcrypto/vg/cpufeat => ../cpufeat

require (
	github.com/mmcloughlin/avo v0.6.0
	github.com/stretchr/testify v1.12.1
	github.com/vgcrypto/vg/stackscratch v0.2.0
)

require (
	github.com/vgcrypto/vg/asmgen/x86sim v0.10.0
	github.com/vgcrypto/vg/internal v0.3.1
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace github.com/vgcrypto/vg/stackscratch => ../stackscratch

replace github.com/vgcrypto/vg/asmgen/x86sim => ./x86sim

replace github.com/vgcrypto/vg/internal => ../internal
