module github.com/vgcrypto/vg/asmgen/x86sim

go 1.26.0

require (
	github.com/stretchr/testify v1.12.1
	github.com/vgcrypto/vg/internal v0.3.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect

replace github.com/vgcrypto/vg/internal => ../../internal
