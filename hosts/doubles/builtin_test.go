package doubles_test

import (
	"context"
	"time"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/doubles"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("--host doubles", func() {
	It("serves the reference host's tools and the nine labelled doubles out of process", func() {
		Expect(builtin.IsBuiltin("doubles")).To(BeTrue())
		argv, err := builtin.Command("doubles")
		Expect(err).NotTo(HaveOccurred())
		c, err := hostproc.Start(argv, hostproc.StartOptions{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		defer c.Close(5 * time.Second)
		ctx := context.Background()
		p := initParams("balanced")
		p.WorkspaceRoot, p.StoreDir = GinkgoT().TempDir(), GinkgoT().TempDir()
		init, err := c.Initialize(ctx, p)
		Expect(err).NotTo(HaveOccurred(), c.Stderr())
		Expect(init.Doubles).To(Equal(doubles.IDs()))
		Expect(init.Tools).To(ContainElements("workspace.read", "workspace.write", "research.fetch", "artifact.create"))
		set, err := c.ToolSet(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(set.CanonicalToolIDs).To(HaveKeyWithValue("fetch_url", "research.fetch"))
		Expect(set.CanonicalToolIDs).To(HaveKeyWithValue("write_file", "workspace.write"))
		r, err := c.Execute(ctx, wire.ExecuteParams{CallID: "c1", ModelName: "list_files", Arguments: raw(map[string]any{"path": "."}),
			IdempotencyKey: "k1", TimeoutMs: 5000, Context: wire.RunContext{RunID: "r", TaskID: "t", Mode: "auto"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), r.Content)
	})
})
