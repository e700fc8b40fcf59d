package schema

import (
	"encoding/json"
	"math"
)

// number converts a JSON number held in any common Go form to float64.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int8:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint8:
		return float64(n), true
	case uint16:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint64:
		return float64(n), true
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
