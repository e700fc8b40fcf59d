// Package store holds the memory doubles of the core's storage ports: a run
// store (checkpoints and final reports, CONTRACTS §13.7, LAB §22.2), a trace
// (CONTRACTS §13.9, LAB §18.1), and failing wrappers that make any run
// store or trace fail on the Nth call of one operation.
//
// The harness uses the memory doubles for hosts that offer no store or
// trace of their own, labelled as such in reports; the failing wrappers
// drive the persistence and trace fault items.
//
// # Example
//
//	runs := store.NewRunStore()
//	flaky := store.NewFailingRunStore(runs,
//		store.Fault{Op: store.OpPut, Nth: 2, Committed: true})
//	flaky.SaveCheckpoint(ctx, first)  // ok
//	flaky.SaveCheckpoint(ctx, second) // error, but second is saved
//	runs.LoadLatestCheckpoint(ctx, runID) // second
//
// Everything crosses these doubles by copy: a caller that changes bytes it
// passed in or got back changes nothing inside.
package store
