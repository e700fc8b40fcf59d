// Package clock provides the deterministic time and identifier doubles the
// core runtime runs on: a fake clock that moves only when told to and
// records every virtual sleep, and an ID source that counts.
//
// # Example
//
//	c := clock.NewFake(0)           // the Unix epoch
//	c.Advance(1500 * time.Millisecond)
//	c.Now()                         // 1500
//	_ = c.Sleep(ctx, time.Second)   // returns at once, time is now 2500
//	c.SleepsMs()                    // [1000]
//
//	ids := clock.NewIDs("")
//	ids.NewID("run")                // "run-1"
//	ids.NewID("execution")          // "execution-1"
//	ids.NewID("execution")          // "execution-2"
//
// A Fake satisfies port.Clock and port.Sleeper; an IDs satisfies
// port.IDSource.
package clock
