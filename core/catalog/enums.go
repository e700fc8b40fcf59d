package catalog

// Tool categories (CONTRACTS §4.1).
const (
	CategoryArtifact      = "artifact"
	CategoryBootstrap     = "bootstrap"
	CategoryCommand       = "command"
	CategoryCommunication = "communication"
	CategoryGit           = "git"
	CategoryPerception    = "perception"
	CategoryPreview       = "preview"
	CategoryProject       = "project"
	CategoryResearch      = "research"
	CategoryWorkspace     = "workspace"
)

// Tool modalities (CONTRACTS §4.1).
const (
	ModalityText           = "text"
	ModalityImage          = "image"
	ModalityVideo          = "video"
	ModalityAudio          = "audio"
	ModalityStructuredData = "structured_data"
	ModalityArtifact       = "artifact"
)

// Tool risks, ordered low to critical (CONTRACTS §4.1).
const (
	RiskLow      = "low"
	RiskMedium   = "medium"
	RiskHigh     = "high"
	RiskCritical = "critical"
)

// Tool mutabilities (CONTRACTS §4.1).
const (
	MutabilityRead               = "read"
	MutabilityWrite              = "write"
	MutabilityExecute            = "execute"
	MutabilityExternalSideEffect = "external_side_effect"
)

// Tool transports (CONTRACTS §4.1).
const (
	TransportNative    = "native"
	TransportCore      = "core"
	TransportExtension = "extension"
	TransportMCP       = "mcp"
)

// Tool idempotency classes (CONTRACTS §4.1).
const (
	IdempotencySafe    = "safe"
	IdempotencyWithKey = "with_key"
	IdempotencyUnsafe  = "unsafe"
)

// Source owners (CONTRACTS §4.1).
const (
	OwnerBase      = "base"
	OwnerCore      = "core"
	OwnerExtension = "extension"
	OwnerMCP       = "mcp"
)

// Permissions the core catalog uses (CONTRACTS §6.3).
const (
	PermCoreArtifacts   = "core.artifacts"
	PermCoreStorage     = "core.storage"
	PermFSWorkspace     = "fs.workspace"
	PermNetworkOutbound = "network.outbound"
	PermPreviewLocal    = "preview.local"
	PermProcessExecute  = "process.execute"
	PermUserInteraction = "user.interaction"
)

// SchemaVersion is the version of the registry document and of registry
// snapshots (CONTRACTS §6).
const SchemaVersion = "2.0.0"

// DefinitionBudget is the most tokens the active model-facing definitions
// may take, as estimated by [EstimateDefinitionTokens] (CONTRACTS §6, §8.3).
const DefinitionBudget = 10000
