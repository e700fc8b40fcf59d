package port

import (
	"context"
	"time"
)

// Sleeper waits between model retries. Sleep returns ctx's error when the
// context is done; a virtual sleeper records the delay and returns at once.
type Sleeper interface {
	Sleep(ctx context.Context, d time.Duration) error
}
