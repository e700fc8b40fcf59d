package checkpoint

// The field rules of the shape checks are written with the helpers below:
// each adds the message at path.key when the member breaks its rule, so a
// record's checks read as one rule a line, in the original's order.

// rule is a predicate on a member's value.
type rule func(v any) bool

// in is the rule "one of values".
func in[S ~string](values ...S) rule {
	return func(v any) bool { return oneOf(v, values...) }
}

// need adds message at path.key unless rec's member key keeps ok (a
// missing member is nil).
func (c *checker) need(rec any, path, key string, ok rule, message string) {
	if v, _ := member(rec, key); !ok(v) {
		c.add(path+"."+key, message)
	}
}

// may is need for an optional member: only a present member is checked.
func (c *checker) may(rec any, path, key string, ok rule, message string) {
	if v, present := member(rec, key); present && !ok(v) {
		c.add(path+"."+key, message)
	}
}

// needNullable adds message at path.key unless rec's member key is present
// and null or a non-empty string.
func (c *checker) needNullable(rec any, path, key, message string) {
	if v, present := member(rec, key); !isNullOrNonEmpty(v, present) {
		c.add(path+"."+key, message)
	}
}

// needStringOrNull adds message at path.key unless rec's member key is
// present and null or a string.
func (c *checker) needStringOrNull(rec any, path, key, message string) {
	if v, present := member(rec, key); !isNullOrString(v, present) {
		c.add(path+"."+key, message)
	}
}

// record checks that v is an object, adding missing at path when it is
// not, and rejects its unknown members; it reports whether v is one.
func (c *checker) record(v any, path, missing string, known ...string) bool {
	if !isObjectLike(v) {
		c.add(path, missing)
		return false
	}
	c.rejectUnknown(v, path, known...)
	return true
}

// array returns v as an array, adding notArray at path when it is not.
func (c *checker) array(v any, path, notArray string) ([]any, bool) {
	arr, ok := v.([]any)
	if !ok {
		c.add(path, notArray)
	}
	return arr, ok
}

// recordList checks v (at path) as an array of records: notArray when it
// is not an array, else its elements as [checker.records] does.
func (c *checker) recordList(v any, path, notArray, notObject string, known []string, each func(rec any, rp string)) {
	if arr, ok := c.array(v, path, notArray); ok {
		c.records(arr, path, notObject, known, each)
	}
}

// records checks every element of arr (at path) as a record (see
// [checker.record], notObject its message) and calls each on those that
// are records.
func (c *checker) records(arr []any, path, notObject string, known []string, each func(rec any, rp string)) {
	for i, rec := range arr {
		rp := indexPath(path, i)
		if c.record(rec, rp, notObject, known...) {
			each(rec, rp)
		}
	}
}
