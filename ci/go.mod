module github.com/vgcrypto/vg/ci

go 1.26.0

require (
	github.com/stretchr/testify v1.12.1
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/vgcrypto/vg/asmgen/x86sim v0.0.0
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

replace github.com/vgcrypto/vg/asmgen/x86sim => ../asmgen/x86sim
