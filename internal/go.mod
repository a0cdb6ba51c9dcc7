module github.com/vgcrypto/vg/internal

go 1.26.0

require (
	github.com/stretchr/testify v1.12.1
	github.com/vgcrypto/vg/stackscratch v0.2.0
)

require golang.org/x/sys v0.50.0 // indirect

require (
	github.com/vgcrypto/vg/cpufeat v0.2.3
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

replace github.com/vgcrypto/vg/stackscratch => ../stackscratch

replace github.com/vgcrypto/vg/cpufeat => ../cpufeat
