package oracle_test

import (
	"reflect"
	"strings"

	"github.com/galaxy-stack/conform/matrix/fixture"
)

// expectedKeys returns the JSON keys of fixture.Expected, in field order.
func expectedKeys() []string {
	t := reflect.TypeFor[fixture.Expected]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return keys
}

func fieldIndex(key string) (int, bool) {
	for i, k := range expectedKeys() {
		if k == key {
			return i, true
		}
	}
	return 0, false
}

func reflectValue(e *fixture.Expected) reflect.Value { return reflect.ValueOf(e).Elem() }
