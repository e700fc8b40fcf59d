# The test command of README.md; .ci/run runs exactly this target.
.PHONY: test certify build fmt

test:
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	go vet ./...
	go test ./...

certify:
	go run ./cmd/conform certify --host reference

build:
	go build -o bin/conform ./cmd/conform

fmt:
	gofmt -w .
