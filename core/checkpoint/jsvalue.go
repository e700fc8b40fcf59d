package checkpoint

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/galaxy-stack/conform/core/canon"
)

// The helpers below read a canon.Parse tree with the JavaScript semantics
// the original validator relies on: a missing member is undefined (neither
// null nor any type), arrays are objects for typeof, and numbers are
// float64.

// member returns obj[key] and whether it exists; anything but an object has
// no members.
func member(obj any, key string) (any, bool) {
	o, ok := obj.(canon.Object)
	if !ok {
		return nil, false
	}
	return o.Get(key)
}

// isObjectLike is JavaScript's `v && typeof v === "object"`: objects and
// arrays.
func isObjectLike(v any) bool {
	switch v.(type) {
	case canon.Object, []any:
		return true
	}
	return false
}

// isRecord is an object that is not an array.
func isRecord(v any) bool {
	_, ok := v.(canon.Object)
	return ok
}

// nonEmptyString is a string that is not blank after JavaScript's trim.
func nonEmptyString(v any) bool {
	s, ok := v.(string)
	return ok && !canon.IsBlank(s)
}

// stringArray is an array of strings.
func stringArray(v any) bool {
	a, ok := v.([]any)
	if !ok {
		return false
	}
	for _, item := range a {
		if _, ok := item.(string); !ok {
			return false
		}
	}
	return true
}

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER.
const maxSafeInteger = 1<<53 - 1

// number returns v as a float64 if it is a JSON number.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return f, err == nil && !math.IsInf(f, 0)
}

// safeInteger is Number.isSafeInteger. The original checks integers with
// Number.isInteger; conform also requires them to be safe, so that they
// fit an int64 exactly (no real checkpoint holds a count above 2^53).
func safeInteger(v any) (float64, bool) {
	f, ok := number(v)
	return f, ok && f == math.Trunc(f) && math.Abs(f) <= maxSafeInteger
}

func nonNegativeInteger(v any) bool {
	f, ok := safeInteger(v)
	return ok && f >= 0
}

func positiveInteger(v any) bool {
	f, ok := safeInteger(v)
	return ok && f >= 1
}

// oneOf reports whether v is one of the strings.
func oneOf[S ~string](v any, values ...S) bool {
	s, ok := v.(string)
	return ok && slices.Contains(values, S(s))
}

// jsString is JavaScript's String(v) for the values a checkpoint can hold,
// used where the original builds keys with template strings.
func jsString(v any, present bool) string {
	if !present {
		return "undefined"
	}
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	case json.Number, bool:
		b, _ := canon.Marshal(x)
		return string(b)
	case canon.Object:
		return "[object Object]"
	}
	return fmt.Sprint(v)
}

// childPath joins an object path and a key as the original does.
func childPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// indexPath appends an array index.
func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
