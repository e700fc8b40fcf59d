package main

import (
	"encoding/json"

	"github.com/galaxy-stack/conform/internal/atomicfile"
	"github.com/galaxy-stack/conform/matrix/replay"
)

// writeTranscripts writes the transcripts to file atomically: one
// transcript as an object, several as an array in run order.
func writeTranscripts(file string, ts []*replay.Transcript) error {
	var data []byte
	if len(ts) == 1 {
		b, err := ts[0].RedactedJSON()
		if err != nil {
			return err
		}
		data = b
	} else {
		parts := make([]json.RawMessage, 0, len(ts))
		for _, t := range ts {
			b, err := t.RedactedJSON()
			if err != nil {
				return err
			}
			parts = append(parts, b)
		}
		b, err := json.MarshalIndent(parts, "", "  ")
		if err != nil {
			return err
		}
		data = append(b, '\n')
	}
	return writeFileAtomic(file, data)
}

// writeFileAtomic replaces file with data through a temporary file in the
// same directory (internal/atomicfile); a path that is not a regular file
// is refused.
func writeFileAtomic(file string, data []byte) error {
	return atomicfile.WriteFile(file, data, 0o644)
}
