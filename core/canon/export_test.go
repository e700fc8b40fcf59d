package canon

import "bytes"

// MarshalDirect and MarshalGeneral expose the two paths of [Marshal] to the
// differential properties of package canon_test, which use the module's own
// types (and so cannot live in package canon: those packages import it).
var (
	MarshalDirect  = marshalDirect
	MarshalGeneral = canonicalEncoder.marshal
)

// MarshalBefore is Marshal as it was before the direct walker: plain trees
// by writePlain, everything else by the general path.
func MarshalBefore(v any) ([]byte, error) {
	var b bytes.Buffer
	if writePlain(&b, v, 0) {
		return b.Bytes(), nil
	}
	return canonicalEncoder.marshal(v)
}
