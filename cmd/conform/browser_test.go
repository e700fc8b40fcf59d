package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/galaxy-stack/conform/reports"
	"github.com/rogpeppe/go-internal/testscript"
)

// chromium finds the headless browser the project's setup installs
// (Debian's chromium; .ci/run installs it).
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// scriptCondition answers the scripts' own conditions: [chromium] is true
// when the browser test of the HTML report is to run (see browserTest).
func scriptCondition(cond string) (bool, error) {
	if cond != "chromium" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	return browserTest(os.Getenv, chromium() != "")
}

// browserTest decides whether the browser test runs, from the environment
// (getenv) and whether Chromium is installed:
//
//   - CONFORM_NO_BROWSER=1 skips it: set it in CI jobs that cannot have
//     Chromium (the workflow's macOS job does).
//   - Otherwise it runs when Chromium is installed.
//   - Without Chromium it is skipped, except under .ci/run (CONFORM_CI set),
//     which installs Chromium where it can: there a missing browser is an
//     error, so that Linux CI cannot silently stop testing the page. CI
//     alone (which GitHub sets in every job) does not require it.
func browserTest(getenv func(string) string, installed bool) (bool, error) {
	if v := getenv("CONFORM_NO_BROWSER"); v != "" && v != "0" {
		return false, nil
	}
	if installed {
		return true, nil
	}
	if getenv("CONFORM_CI") != "" {
		return false, fmt.Errorf("chromium is not installed, and CI must run the browser test of the HTML report: apt-get install -y chromium (.ci/run does), or set CONFORM_NO_BROWSER=1 in a job that cannot have it")
	}
	return false, nil
}

// cmdBrowsercheck is the script command
//
//	browsercheck PAGE.html DOCUMENT.json [SCREENSHOT.png]
//
// It opens PAGE in headless Chromium and checks, from the rendered DOM,
// that the grid shows every item of DOCUMENT with its status, that every
// failure's repro command is visible, that the status filter hides what it
// should, and that the page made no network request. With SCREENSHOT (or
// $CONFORM_REPORT_SCREENSHOT) it saves a full-page screenshot there.
// Scripts guard it with the condition [chromium] (see scriptCondition).
func cmdBrowsercheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: browsercheck PAGE.html DOCUMENT.json [SCREENSHOT.png]")
	}
	bin := chromium()
	if bin == "" {
		ts.Fatalf("chromium is not installed (guard the command with [chromium]); apt-get install -y chromium")
	}
	page, err := filepath.Abs(ts.MkAbs(args[0]))
	ts.Check(err)
	b, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	doc, err := reports.Decode(b)
	ts.Check(err)
	shot := os.Getenv("CONFORM_REPORT_SCREENSHOT")
	if len(args) == 3 {
		shot = ts.MkAbs(args[2])
	}
	pageURL := (&url.URL{Scheme: "file", Path: page}).String()

	profile, err := os.MkdirTemp("", "conform-chromium-")
	ts.Check(err)
	defer os.RemoveAll(profile)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin), chromedp.UserDataDir(profile),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 900),
		// Chromium leaves files in its TMPDIR; the profile directory is
		// removed when the page is checked.
		chromedp.Env("TMPDIR=" + profile),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 60*time.Second)
	defer stop()

	type tile struct {
		Item, Status, Text string
		Visible            bool
	}
	type code struct {
		Item, Text string
		Visible    bool
	}
	const tilesJS = `Array.from(document.querySelectorAll('.tile')).map(t => ({Item: t.dataset.item, Status: t.dataset.status, Text: t.innerText, Visible: t.getBoundingClientRect().height > 0}))`
	const reprosJS = `Array.from(document.querySelectorAll('.failure')).map(f => { const c = f.querySelector('.repro code'); const r = c ? c.getBoundingClientRect() : {height: 0}; return {Item: f.dataset.item, Text: c ? c.textContent : '', Visible: r.height > 0 && getComputedStyle(c).visibility === 'visible'}; })`

	var mu sync.Mutex
	var requests []string
	// Chromium starts here; chromedp enables the network domain on attach.
	err = chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	})
	if err != nil {
		ts.Fatalf("browsercheck: starting chromium: %v", err)
	}
	check := func(err error) {
		if err != nil {
			ts.Fatalf("browsercheck: %v", err)
		}
	}
	check(chromedp.Do(ctx, chromedp.Navigate(pageURL), chromedp.WaitVisible(chromedp.CSS("div.grid"))))
	tiles, err := chromedp.Run(ctx, chromedp.Evaluate[[]tile](tilesJS))
	check(err)
	repros, err := chromedp.Run(ctx, chromedp.Evaluate[[]code](reprosJS))
	check(err)
	if shot != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		check(err)
		ts.Check(os.WriteFile(shot, png, 0o644))
	}
	check(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-filter-status="failed"]`))))
	shownFailed, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('.tile:not(.hidden)').length`))
	check(err)

	byItem := map[string]tile{}
	for _, t := range tiles {
		byItem[t.Item] = t
	}
	if len(tiles) != len(doc.Items) {
		ts.Fatalf("the grid shows %d tiles; the document has %d items", len(tiles), len(doc.Items))
	}
	for _, it := range doc.Items {
		ref := reports.ItemRef(it)
		t, ok := byItem[ref]
		if !ok {
			ts.Fatalf("item %s is not in the grid", ref)
		}
		word := it.Status
		if word == reports.NotApplicable {
			word = "n/a"
		}
		if t.Status != it.Status || !t.Visible || !strings.Contains(strings.ToLower(t.Text), word) {
			ts.Fatalf("item %s shows %+v; want status %s visible", ref, t, it.Status)
		}
	}
	failed := 0
	for _, it := range doc.Items {
		if it.Status != reports.Failed {
			continue
		}
		failed++
		found := false
		for _, r := range repros {
			if r.Item == reports.ItemRef(it) && r.Text == it.Repro && r.Visible {
				found = true
			}
		}
		if !found {
			ts.Fatalf("the repro command of failed item %s (%s) is not visible; the page shows %+v", reports.ItemRef(it), it.Repro, repros)
		}
	}
	if shownFailed != failed {
		ts.Fatalf("with the failed filter %d tiles are shown; %d items failed", shownFailed, failed)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if u != pageURL && !strings.HasPrefix(u, "data:") {
			ts.Fatalf("the page made a network request: %s", u)
		}
	}
	if len(requests) == 0 {
		ts.Fatalf("no request was seen at all, not even the page's own: the network listener is not working")
	}
	ts.Logf("browsercheck: %d items, %d failures with visible repro commands, %d requests (the page itself)", len(tiles), failed, len(requests))
}

// TestBrowserTestDecision: a missing Chromium fails only under .ci/run
// (CONFORM_CI), not merely because $CI is set; CONFORM_NO_BROWSER=1 skips
// the browser test by configuration.
func TestBrowserTestDecision(t *testing.T) {
	for _, tc := range []struct {
		env       map[string]string
		installed bool
		run, fail bool
	}{
		{env: nil, installed: true, run: true},
		{env: nil, installed: false},
		{env: map[string]string{"CI": "true"}, installed: false},
		{env: map[string]string{"CI": "true"}, installed: true, run: true},
		{env: map[string]string{"CONFORM_CI": "1"}, installed: false, fail: true},
		{env: map[string]string{"CONFORM_CI": "1", "CI": "true"}, installed: true, run: true},
		{env: map[string]string{"CONFORM_CI": "1", "CONFORM_NO_BROWSER": "1"}, installed: false},
		{env: map[string]string{"CONFORM_CI": "1", "CONFORM_NO_BROWSER": "1"}, installed: true},
		{env: map[string]string{"CONFORM_CI": "1", "CONFORM_NO_BROWSER": "0"}, installed: false, fail: true},
	} {
		run, err := browserTest(func(k string) string { return tc.env[k] }, tc.installed)
		if run != tc.run || (err != nil) != tc.fail {
			t.Errorf("env %v, installed %v: run %v, err %v; want run %v, fail %v", tc.env, tc.installed, run, err, tc.run, tc.fail)
		}
	}
}
