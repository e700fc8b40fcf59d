package port

// Attachment is one attachment descriptor sent with a model round and a
// token count (CONTRACTS §12.1 AiCoderAttachment, §13.2 `attachments`).
// The core resends a request's attachments on every round because it
// assumes no stateful provider session (RUNTIME §11 step 8); the host
// resolves ArtifactID to the payload. Trust is always "untrusted_data".
type Attachment struct {
	ArtifactID    string               `json:"artifactId"`
	ContentSha256 string               `json:"contentSha256"`
	MimeType      string               `json:"mimeType"`
	Name          string               `json:"name"`
	Provenance    AttachmentProvenance `json:"provenance"`
	Retention     string               `json:"retention"`
	Trust         string               `json:"trust"`
}

// AttachmentProvenance says where an attachment came from: Source is one
// of clipboard, generated, screen_capture, tool_output, user_upload or
// workspace.
type AttachmentProvenance struct {
	Source string `json:"source"`
}
