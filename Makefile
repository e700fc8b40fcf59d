# The test command of README.md; .ci/run runs exactly this target. The
# tests run with a private TMPDIR and fail when they leave a file there or a
# process running (.ci/leftovers.sh); then every fuzz target runs for 5 s
# (.ci/fuzz.sh). actionlint (pinned, built through the Go module proxy and
# cached after the first run) checks the GitHub workflows; it runs
# shellcheck on their run: scripts when shellcheck is installed.
.PHONY: test certify build fmt mutation actionlint node

ACTIONLINT_VERSION = v1.7.12

test: actionlint
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	go vet ./...
	.ci/leftovers.sh go test ./...
	.ci/leftovers.sh .ci/fuzz.sh 5s

actionlint:
	go run github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION) .github/workflows/*.yml

certify:
	go run ./cmd/conform certify --host reference

build:
	go build -o bin/conform ./cmd/conform

# The Node.js host's pinned npm dependencies (hosts/node/package-lock.json);
# hosts/node's Go test runs its unit tests and certifies it once they are in.
node:
	npm ci --prefix hosts/node

fmt:
	gofmt -w .

# Mutation testing (MUTATION.md): installs the pinned gremlins into .bin/
# and runs it one package at a time with 2 workers. Tens of minutes, so not
# part of test. PKGS narrows it, e.g. make mutation PKGS=core/guard;
# PKGS=all runs every package of core/, hosts/reference/ and matrix/oracle.
GREMLINS_VERSION = v0.6.0
mutation:
	GOBIN=$(CURDIR)/.bin go install github.com/go-gremlins/gremlins/cmd/gremlins@$(GREMLINS_VERSION)
	.ci/mutation.sh $(PKGS)
