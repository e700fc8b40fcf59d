package matrix

var _ = describeItem(3, func() { scenarios(nil) })

var _ = describeItem(8, func() { scenarios(nil) })

var _ = describeItem(9, func() { scenarios(nil) })

var _ = describeItem(20, func() { scenarios(nil) })

var _ = describeItem(29, func() { scenarios(nil) })

var _ = describeItem(34, func() { scenarios(nil) })

var _ = describeItem(35, func() { scenarios(nil) })
