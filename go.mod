module github.com/mxgo/mxgo

go 1.25.0

tool (
	github.com/go-python/gopy
	golang.org/x/tools/cmd/goimports
	honnef.co/go/tools/cmd/staticcheck
)

require (
	github.com/go-python/gopy v0.4.10
	gonum.org/v1/gonum v0.16.0
	gorgonia.org/cu v0.9.6
)

require (
	github.com/BurntSushi/toml v1.4.1-0.20240526193622-a339e1f7089c // indirect
	github.com/google/uuid v1.1.1 // indirect
	golang.org/x/exp/typeparams v0.0.0-20231108232855-2478ac86f678 // indirect
	honnef.co/go/tools v0.7.0 // indirect
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/gonuts/commander v0.1.0 // indirect
	github.com/gonuts/flag v0.1.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/stretchr/testify v1.11.1
	golang.org/x/mod v0.31.0 // indirect
	golang.org/x/sync v0.19.0 // indirect
	golang.org/x/sys v0.39.0 // indirect
	golang.org/x/telemetry v0.0.0-20251203150158-8fff8a5912fc // indirect
	golang.org/x/tools v0.40.1-0.20260108161641-ca281cf95054 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
