package run_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/clock"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/internal/floor"
)

// runScript runs script through the controller against exec and returns
// the model, whose Requests are the rounds' requests.
func runScript(b *testing.B, script []model.Round, exec *memExecutor, calls int) *model.Scripted {
	m := model.NewScripted(script)
	deps := run.Deps{Model: m, Tools: exec, Clock: clock.NewFake(1_700_000_000_000), IDs: clock.NewIDs("")}
	res, err := run.Run(context.Background(), deps, benchRequest())
	if err != nil || res.Status != run.StatusCompleted || len(res.Calls) != calls {
		b.Fatalf("run ended %s %s: %s (%d calls, err %v)", res.Status, res.ErrorCode, res.ErrorMessage, len(res.Calls), err)
	}
	return m
}

// roundFloor is the floor of one round: the canonical JSON of its model
// request and the SHA-256 of those bytes, the least work a controller that
// records what it asked the model can do per round.
func roundFloor(b *testing.B, req port.RoundRequest) int {
	data, err := canon.Marshal(req)
	if err != nil {
		b.Fatal(err)
	}
	_ = sha256.Sum256(data)
	return len(data)
}

// plainFloor is roundFloor with encoding/json in place of the canonical
// encoding: what the canonical form costs beyond a plain encoding.
func plainFloor(b *testing.B, req port.RoundRequest) {
	data, err := json.Marshal(req)
	if err != nil {
		b.Fatal(err)
	}
	_ = sha256.Sum256(data)
}

// BenchmarkControllerRound runs, in one loop so that each figure meets the
// same load, a whole run of 40 one-call rounds, a whole run of 4 rounds of
// 50 calls, and the floor of one round (the canonical JSON and SHA-256 of
// the middle one-call round's model request, as the controller built it):
//
//   - one-call-us/call and batched-us/call: controller time per tool call;
//   - one-call/batched: their ratio, whose goal is at most 2;
//   - floor-us/round: the floor, and one-call-round/floor: the controller's
//     time per one-call round (the run's time over its 41 rounds) against it;
//   - plain-json-us/round: the floor with encoding/json in place of the
//     canonical encoding, and request-bytes: the canonical request's size.
//
// Every figure is the median of the loop's samples.
func BenchmarkControllerRound(b *testing.B) {
	const oneRounds, batchRounds, batchSize = 40, 4, 50
	exec := newMemExecutor()
	oneScript, batchScript := benchRounds(oneRounds, 1), benchRounds(batchRounds, batchSize)
	reqs := runScript(b, oneScript, exec, oneRounds).Requests()
	req := reqs[len(reqs)/2]
	var oneS, batchS, floorS, plainS floor.Samples
	size := 0
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		runScript(b, oneScript, exec, oneRounds)
		oneS = append(oneS, time.Since(start))
		start = time.Now()
		runScript(b, batchScript, exec, batchRounds*batchSize)
		batchS = append(batchS, time.Since(start))
		start = time.Now()
		size = roundFloor(b, req)
		floorS = append(floorS, time.Since(start))
		start = time.Now()
		plainFloor(b, req)
		plainS = append(plainS, time.Since(start))
	}
	one, batch, fl := oneS.Median(), batchS.Median(), floorS.Median()
	perCallOne := float64(one.Nanoseconds()) / 1000 / oneRounds
	perCallBatch := float64(batch.Nanoseconds()) / 1000 / (batchRounds * batchSize)
	perRoundOne := float64(one.Nanoseconds()) / 1000 / (oneRounds + 1)
	floorUs := float64(fl.Nanoseconds()) / 1000
	b.ReportMetric(perCallOne, "one-call-us/call")
	b.ReportMetric(perCallBatch, "batched-us/call")
	b.ReportMetric(perCallOne/perCallBatch, "one-call/batched")
	b.ReportMetric(floorUs, "floor-us/round")
	b.ReportMetric(perRoundOne/floorUs, "one-call-round/floor")
	b.ReportMetric(float64(plainS.Median().Nanoseconds())/1000, "plain-json-us/round")
	b.ReportMetric(float64(size), "request-bytes")
}
