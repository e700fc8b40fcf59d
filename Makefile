# The test command of README.md; .ci/run runs exactly this target. The
# tests run with a private TMPDIR and fail when they leave a file there or a
# process running (.ci/leftovers.sh); then every fuzz target runs for 5 s
# (.ci/fuzz.sh), and the Node.js host (hosts/node) is certified against the
# whole matrix when its packages are installed (make node, which test runs). actionlint (pinned, built through the Go module proxy and
# cached after the first run) checks the GitHub workflows, and through the
# workflow that uses it the inputs of the project's action (ci/action.yml;
# actionlint does not lint an action's own steps); it runs shellcheck on
# the workflows' run: scripts when shellcheck is installed.
.PHONY: test certify build fmt mutation actionlint bench node

ACTIONLINT_VERSION = v1.7.12

test: actionlint node
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	go vet ./...
	.ci/leftovers.sh go test ./...
	.ci/leftovers.sh .ci/fuzz.sh 5s
	@if [ -d hosts/node/node_modules ]; then \
		.ci/leftovers.sh go run ./cmd/conform certify --host 'node hosts/node/host.mjs' --parallel 2; \
	else echo "hosts/node/node_modules is missing: the Node.js host is not certified (make node)"; fi

actionlint:
	go run github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION) .github/workflows/*.yml

certify:
	go run ./cmd/conform certify --host reference

build:
	go build -o bin/conform ./cmd/conform

# The Node.js host's pinned npm dependencies (hosts/node/package-lock.json);
# hosts/node's Go test runs its unit tests and certifies it once they are in.
# Without npm the test skips, except under .ci/run (CONFORM_CI), which
# installs Node.js and npm and fails without them.
node:
	@if command -v npm >/dev/null 2>&1; then npm ci --prefix hosts/node --no-audit --no-fund; \
	elif [ -n "$$CONFORM_CI" ]; then echo "npm is not installed: .ci/run needs it for the Node.js host"; exit 1; \
	else echo "npm is not installed: the Node.js host's tests skip"; fi

fmt:
	gofmt -w .

# The benchmarks of BENCHMARKS.md, each paired with its floor in the same
# loop: runs every command internal/benchtable lists, prints the load
# average before and after, then the table of figures, floors, goals and
# met / not met. A minute or two; not part of test.
bench:
	@out=$$(mktemp) && trap 'rm -f "$$out"' EXIT && \
	echo "load before: $$(uptime)" && \
	go run ./internal/benchtable -commands | while read -r cmd; do \
		echo "$$cmd"; sh -c "$$cmd" | tee -a "$$out" | grep '^Benchmark'; \
	done; \
	echo "load after: $$(uptime)" && \
	go run ./internal/benchtable "$$out"

# Mutation testing (MUTATION.md): installs the pinned gremlins into .bin/
# and runs it one package at a time with 2 workers. Tens of minutes, so not
# part of test. PKGS narrows it, e.g. make mutation PKGS=core/guard;
# PKGS=all runs every package of core/, hosts/reference/ and matrix/oracle.
GREMLINS_VERSION = v0.6.0
mutation:
	GOBIN=$(CURDIR)/.bin go install github.com/go-gremlins/gremlins/cmd/gremlins@$(GREMLINS_VERSION)
	.ci/mutation.sh $(PKGS)
