package matrix

var _ = describeItem(43, func() { scenarios(nil) })

var _ = describeItem(44, func() { scenarios(nil) })

var _ = describeItem(45, func() { scenarios(nil) })
