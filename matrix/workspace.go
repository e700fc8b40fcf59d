package matrix

import (
	. "github.com/onsi/gomega"
)

var _ = describeItem(1, func() {
	scenarios(map[string]check{
		"inspect.json": func(o *outcome) {
			for _, r := range o.Observed.ToolResults {
				Expect(r.EffectsAuthority).To(Equal("host"), "%s carries host-attested effects", r.ToolName)
				Expect(r.Effects).NotTo(BeNil(), "%s attests its effects", r.ToolName)
				Expect(r.Effects.InspectedPaths).NotTo(BeEmpty(), "%s attests what it inspected", r.ToolName)
				Expect(r.Effects.Writes).To(BeEmpty(), "%s is read-only and attests no writes", r.ToolName)
			}
		},
	})
})

var _ = describeItem(2, func() {
	scenarios(map[string]check{
		"failure-keeps-inode.json": func(o *outcome) { o.keptInode("settings.txt") },
	})
})

var _ = describeItem(13, func() { scenarios(nil) })

var _ = describeItem(27, func() { scenarios(nil) })

var _ = describeItem(30, func() { scenarios(nil) })

var _ = describeItem(32, func() { scenarios(nil) })

var _ = describeItem(33, func() { scenarios(nil) })
