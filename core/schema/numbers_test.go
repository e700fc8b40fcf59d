package schema

import (
	"encoding/json"
	"math"
	"testing"
)

// TestNumberTakesEveryBuiltInNumericType checks that number reads each
// built-in numeric type and json.Number, and refuses a type defined on one
// and anything that is not a number.
func TestNumberTakesEveryBuiltInNumericType(t *testing.T) {
	type defined int
	for _, c := range []struct {
		v    any
		want float64
		ok   bool
	}{
		{float64(1.5), 1.5, true}, {float32(0.25), 0.25, true},
		{int(-3), -3, true}, {int8(-8), -8, true}, {int16(-16), -16, true}, {int32(-32), -32, true}, {int64(math.MinInt64), math.MinInt64, true},
		{uint(3), 3, true}, {uint8(8), 8, true}, {uint16(16), 16, true}, {uint32(32), 32, true}, {uint64(math.MaxUint64), math.MaxUint64, true},
		{json.Number("2e3"), 2000, true}, {json.Number("x"), 0, false},
		{defined(1), 0, false}, {"1", 0, false}, {true, 0, false}, {nil, 0, false},
	} {
		if got, ok := number(c.v); got != c.want || ok != c.ok {
			t.Errorf("number(%T %v) = %v, %v; want %v, %v", c.v, c.v, got, ok, c.want, c.ok)
		}
	}
}
