package run

import "github.com/galaxy-stack/conform/core/port"

// roundAttachments returns the request's attachments in the model port's
// shape, or nil when it has none. They go with every round (RUNTIME §11
// step 8): the port is provider-neutral and may be stateless, so a round
// after a retry, a compaction or a resume carries them again. Each call
// returns a fresh slice, so an adapter cannot alter the request's copy.
func (s *session) roundAttachments() []port.Attachment {
	if len(s.req.Attachments) == 0 {
		return nil
	}
	out := make([]port.Attachment, len(s.req.Attachments))
	for i, a := range s.req.Attachments {
		out[i] = port.Attachment{ArtifactID: a.ArtifactID, ContentSha256: a.ContentSha256, MimeType: a.MimeType, Name: a.Name,
			Provenance: port.AttachmentProvenance{Source: a.Provenance.Source}, Retention: a.Retention, Trust: a.Trust}
	}
	return out
}
