//go:build linux

package hostproc_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/galaxy-stack/conform/hosts/hosttest"
)

// zooEnv selects the hostile host the test binary plays when it is
// re-executed by a zoo spec (see TestMain).
const zooEnv = "WIRE_ZOO_HOST"

const zooInit = `{"protocolVersion":"1","host":{"name":"zoo","version":"1"},"tools":[],"capabilities":{"store":true,"trace":true,"spill":false,"fingerprint":false}}`

const zooApproval = `{"requestId":"r:c","canonicalToolId":"workspace.write","modelName":"write_file","arguments":{},"risk":"medium","mutability":"write","approvalProfile":"strict","reason":"why","suggestedScope":"once","timeoutMs":1000,"context":{"runId":"r","taskId":"t","toolCallId":"c","mode":"auto"}}`

// zooMsg is what the zoo host reads of a harness message.
type zooMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// zooHost plays the hostile host named mode on stdin and stdout and exits.
func zooHost(mode string) {
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	answer := func(id json.RawMessage, result string) { say(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result) }
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 8<<20)
	next := func() zooMsg {
		if !in.Scan() {
			os.Exit(0)
		}
		var m zooMsg
		_ = json.Unmarshal(in.Bytes(), &m)
		return m
	}
	hang := func() { select {} }
	// serve answers the session's ordinary calls; on(m) handles a method
	// the mode cares about and reports whether it did.
	serve := func(on func(m zooMsg) bool) {
		for {
			m := next()
			if on != nil && on(m) {
				continue
			}
			switch m.Method {
			case "initialize":
				answer(m.ID, zooInit)
			case "shutdown":
				answer(m.ID, `{}`)
				os.Exit(0)
			case "trace/flush":
				answer(m.ID, `{"durableEvents":0}`)
			case "$/cancelRequest":
			default:
				say(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, m.ID)
			}
		}
	}
	switch mode {
	case "exit-before-initialize":
		fmt.Fprintln(os.Stderr, "zoo: cannot open configuration")
		os.Exit(3)
	case "crash-mid-call":
		serve(func(m zooMsg) bool {
			if m.Method == "tool/execute" {
				fmt.Fprintln(os.Stderr, "panic: assignment to entry in nil map")
				os.Exit(2)
			}
			return false
		})
	case "reference-hanging":
		fmt.Fprintln(os.Stderr, "zoo: the reference host, hanging every tool/execute")
		hosttest.ServeHanging(hosttest.Hanging{})
	case "plain":
		serve(nil)
	case "hang":
		serve(func(m zooMsg) bool { return m.Method == "trace/flush" || m.Method == "tool/execute" })
	case "ignore-cancel":
		serve(func(m zooMsg) bool { return m.Method == "tool/execute" || m.Method == "$/cancelRequest" })
	case "garbage":
		next()
		say("hello, this is not JSON")
		hang()
	case "partial-eof":
		next()
		fmt.Fprint(out, `{"jsonrpc":"2.0","id":1,"res`)
		out.Flush()
		os.Exit(0)
	case "huge-line":
		next()
		say(`{"jsonrpc":"2.0","id":1,"result":{"x":"%s"}}`, strings.Repeat("a", 2<<20))
		hang()
	case "wrong-id":
		next()
		answer([]byte("99"), zooInit)
		hang()
	case "duplicate-id":
		m := next()
		answer(m.ID, zooInit)
		answer(m.ID, zooInit)
		serve(nil)
	case "unsolicited-response":
		m := next()
		answer(m.ID, zooInit)
		answer([]byte("7"), `{}`)
		serve(nil)
	case "unsolicited-approval":
		m := next()
		answer(m.ID, zooInit)
		say(`{"jsonrpc":"2.0","id":"h1","method":"approval/request","params":%s}`, zooApproval)
		serve(nil)
	case "output-after-shutdown":
		serve(func(m zooMsg) bool {
			if m.Method == "shutdown" {
				answer(m.ID, `{}`)
				say(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}`)
				time.Sleep(100 * time.Millisecond)
				os.Exit(0)
			}
			return false
		})
	case "ignore-shutdown":
		serve(func(m zooMsg) bool {
			if m.Method == "shutdown" {
				answer(m.ID, `{}`)
				signalIgnore()
				hang()
			}
			return false
		})
	case "stderr-flood":
		chunk := []byte(strings.Repeat("zoo: noise noise noise noise noise noise noise noise\n", 1<<10))
		for n := 0; n < 100<<20; n += len(chunk) {
			_, _ = os.Stderr.Write(chunk)
		}
		fmt.Fprintln(os.Stderr, "zoo: last line")
		serve(nil)
	case "setsid-grandchild":
		hosttest.SpawnSleep(&syscall.SysProcAttr{Setsid: true}, nil)
		fmt.Fprintln(os.Stderr, "zoo: leaving a setsid child on stderr")
		os.Exit(1)
	case "group-grandchild":
		hosttest.SpawnSleep(nil, nil)
		serve(nil)
	case "hidden-grandchild":
		// Like a command a host runs: its own group, a scrubbed environment.
		pid := hosttest.SpawnSleep(&syscall.SysProcAttr{Setpgid: true}, []string{"PATH=" + os.Getenv("PATH")})
		fmt.Fprintf(os.Stderr, "child %d\n", pid)
		serve(nil)
	case "flood":
		serve(func(m zooMsg) bool {
			if m.Method != "tool/execute" {
				return false
			}
			// 200,000 approval requests, and stdin is never read again.
			for i := 0; i < 200000; i++ {
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":"a%d","method":"approval/request","params":%s}`+"\n", i, zooApproval)
			}
			out.Flush()
			hang()
			return true
		})
	case "in-flight":
		serve(func(m zooMsg) bool {
			if m.Method != "tool/execute" {
				return false
			}
			for i := 0; i < 9; i++ {
				say(`{"jsonrpc":"2.0","id":"a%d","method":"approval/request","params":%s}`, i, zooApproval)
			}
			return true
		})
	case "not-reading":
		m := next()
		answer(m.ID, zooInit)
		hang()
	case "early-exit-0":
		m := next()
		answer(m.ID, zooInit)
		os.Exit(0)
	case "close-stdout":
		m := next()
		answer(m.ID, zooInit)
		os.Stdout.Close()
		hang()
	case "secret-stderr":
		fmt.Fprintln(os.Stderr, "push failed for https://bot:hunter2hunter2@example.com with token ghp_abcdefghijklmnopqrstuvwxyz0123456789")
		os.Exit(1)
	case "env":
		// The cache first: the stderr tail an error quotes is cut, and a
		// long TMPDIR (the CI's) would push it out.
		fmt.Fprintf(os.Stderr, "cache=%q secret=%q passed=%q home=%q tmpdir=%q\n", os.Getenv("CONFORM_CACHE_DIR"), os.Getenv("ZOO_SECRET"), os.Getenv("ZOO_PASSED"), os.Getenv("HOME"), os.Getenv("TMPDIR"))
		os.Exit(1)
	case "big-answer":
		serve(func(m zooMsg) bool {
			if m.Method != "store/get" {
				return false
			}
			answer(m.ID, `{"document":{"blob":"`+strings.Repeat("x", 32<<20)+`"}}`)
			return true
		})
	default:
		fmt.Fprintf(os.Stderr, "zoo: unknown mode %q\n", mode)
		os.Exit(9)
	}
}

// signalIgnore makes the host ignore the signals a polite harness sends.
func signalIgnore() {
	signalIgnoreFn()
}
