package prompt

// HasCodeMarker and HasVietnameseMark expose the content-class scans to
// the external tests, which compare them with reference patterns.
var (
	HasCodeMarker     = hasCodeMarker
	HasVietnameseMark = hasVietnameseMark
)
