// Package kit is the vocabulary of the matrix items: what an item's body
// is given and the assertions its specs make.
//
// An item body receives a [TestContext] (csi-test's DescribeSanity gives
// its TestContext the same way): the item's ID, reference and scenario
// folder, and through them the [Host] under test and the bound of the
// running spec ([TestContext.Ctx]). Item code reads no package-level
// state; the registry's test TestItemCodeReadsNoPackageState says so.
//
// [TestContext.Scenarios] declares one spec per scenario file of the
// item; each runs through the lab and its oracle, then hands the item's
// [Check] an [Outcome], whose methods are the assertions, one file per
// concern: wirelog.go (what crossed the wire), evidence.go (what the
// host attested), checkpoint.go and resume.go (what a fresh host finds
// durable), command.go, environment.go, dialect.go and cancel.go
// (commands), approval.go, containment.go, git.go, research.go,
// replay.go, and property.go with rapid.go and draw.go (item 39's
// properties).
package kit
