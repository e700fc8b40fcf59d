package schema

import (
	"encoding/json"
	"math"
	"reflect"
)

// number converts a JSON number held in any common Go form to float64:
// float64, float32, the sized and unsized ints and uints (not types
// defined on them), and json.Number.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int, int8, int16, int32, int64:
		return float64(reflect.ValueOf(n).Int()), true
	case uint, uint8, uint16, uint32, uint64:
		return float64(reflect.ValueOf(n).Uint()), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func finiteNumber(v any) (float64, bool) {
	f, ok := number(v)
	return f, ok && !math.IsInf(f, 0) && !math.IsNaN(f)
}

func nonNegativeInteger(v any) (float64, bool) {
	f, ok := finiteNumber(v)
	return f, ok && f >= 0 && f == math.Trunc(f)
}
