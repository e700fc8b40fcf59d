package window

import (
	"fmt"
	"math"
	"strings"
)

// An Image is what the vision estimator needs of one attachment (CONTRACTS
// §12.1): its ID and whichever of pixels, dimensions, byte length or data
// URL the host reported. Zero means unknown.
type Image struct {
	ArtifactID    string
	ByteLength    int
	DataURL       string
	DecodedPixels int
	Width         int
	Height        int
}

// A VisionBucket is an image size class.
type VisionBucket string

// The vision buckets, smallest first.
const (
	BucketThumbnail VisionBucket = "thumbnail"
	BucketSmall     VisionBucket = "small"
	BucketMedium    VisionBucket = "medium"
	BucketLarge     VisionBucket = "large"
)

// Vision estimator versions (CONTRACTS §12.2).
const (
	VisionFallbackVersion   = "fallback-image-buckets/1"
	visionCalibratedVersion = "calibrated-image-buckets/1.%d"
)

func bucketTokens(b VisionBucket) float64 {
	switch b {
	case BucketThumbnail:
		return 800
	case BucketSmall:
		return 1800
	case BucketMedium:
		return 3200
	}
	return 6000
}

func bucketIndex(b VisionBucket) int {
	switch b {
	case BucketThumbnail:
		return 0
	case BucketSmall:
		return 1
	case BucketMedium:
		return 2
	}
	return 3
}

// pixels returns DecodedPixels or Width×Height.
func (im Image) pixels() int {
	if im.DecodedPixels != 0 {
		return im.DecodedPixels
	}
	return im.Width * im.Height
}

// bytes returns ByteLength or the bytes decoded from DataURL.
func (im Image) bytes() int {
	if im.ByteLength != 0 {
		return im.ByteLength
	}
	return DataURLBytes(im.DataURL)
}

// Bucket returns the size class of im: by pixels when known (≤256000
// thumbnail, ≤1000000 small, ≤4000000 medium, else large), otherwise by
// bytes (≤100000, ≤500000, ≤2000000, else large).
func (im Image) Bucket() VisionBucket {
	if p := im.pixels(); p > 0 {
		switch {
		case p <= 256_000:
			return BucketThumbnail
		case p <= 1_000_000:
			return BucketSmall
		case p <= 4_000_000:
			return BucketMedium
		}
		return BucketLarge
	}
	switch b := im.bytes(); {
	case b <= 100_000:
		return BucketThumbnail
	case b <= 500_000:
		return BucketSmall
	case b <= 2_000_000:
		return BucketMedium
	}
	return BucketLarge
}

// DataURLBytes returns the payload size of a data URL: 0 without a comma;
// for a ";base64" URL floor(len×3/4) minus the padding (2 for "==", 1 for
// "="); otherwise the UTF-8 length of the payload.
func DataURLBytes(dataURL string) int {
	i := strings.IndexByte(dataURL, ',')
	if i < 0 {
		return 0
	}
	meta, payload := dataURL[:i], dataURL[i+1:]
	if !strings.Contains(meta, ";base64") {
		return len(payload)
	}
	pad := 0
	if strings.HasSuffix(payload, "==") {
		pad = 2
	} else if strings.HasSuffix(payload, "=") {
		pad = 1
	}
	return max(0, len(payload)*3/4-pad)
}

// VisionAccounting is the per-round image token record of a ledger entry
// (CONTRACTS §12.2). ActualPromptTokenDelta is nil unless calibrated.
type VisionAccounting struct {
	ActualPromptTokenDelta *int     `json:"actualPromptTokenDelta"`
	EstimatedVisionTokens  int      `json:"estimatedVisionTokens"`
	ImageArtifactIDs       []string `json:"imageArtifactIds"`
	ImageCount             int      `json:"imageCount"`
	TotalDecodedPixels     int      `json:"totalDecodedPixels"`
	TotalImageBytes        int      `json:"totalImageBytes"`
	VisionEstimatorVersion string   `json:"visionEstimatorVersion"`
}

// A VisionEstimator prices images by size bucket with a per-bucket
// calibration factor. The zero value is uncalibrated.
type VisionEstimator struct {
	factor       [4]float64 // 0 means 1
	calibrations int
}

func (v *VisionEstimator) bucketFactor(b VisionBucket) float64 {
	if f := v.factor[bucketIndex(b)]; f != 0 {
		return f
	}
	return 1
}

// Estimate returns the accounting of images: per image ceil(bucket default
// × bucket factor) tokens (defaults thumbnail 800, small 1800, medium 3200,
// large 6000).
func (v *VisionEstimator) Estimate(images []Image) VisionAccounting {
	return v.estimate(images, nil)
}

func (v *VisionEstimator) estimate(images []Image, delta *int) VisionAccounting {
	acc := VisionAccounting{ActualPromptTokenDelta: delta, ImageArtifactIDs: []string{}, ImageCount: len(images),
		VisionEstimatorVersion: VisionFallbackVersion}
	for _, im := range images {
		b := im.Bucket()
		acc.EstimatedVisionTokens += int(math.Ceil(bucketTokens(b) * v.bucketFactor(b)))
		acc.ImageArtifactIDs = append(acc.ImageArtifactIDs, im.ArtifactID)
		acc.TotalDecodedPixels += im.pixels()
		acc.TotalImageBytes += im.bytes()
	}
	if v.calibrations > 0 {
		acc.VisionEstimatorVersion = fmt.Sprintf(visionCalibratedVersion, v.calibrations)
	}
	return acc
}

// Calibrate learns from the provider's prompt-token delta for images:
// ratio = clamp(delta / baseline estimate, 0.5, 2); each bucket present
// moves to previous × 0.75 + ratio × 0.25 and the calibration count grows.
// Without images, a zero baseline or a non-positive delta nothing changes.
// It returns the accounting after calibration.
func (v *VisionEstimator) Calibrate(images []Image, delta int) VisionAccounting {
	baseline := v.Estimate(images).EstimatedVisionTokens
	if len(images) == 0 || baseline <= 0 || delta <= 0 {
		return v.Estimate(images)
	}
	ratio := math.Min(2, math.Max(0.5, float64(delta)/float64(baseline)))
	var seen [4]bool
	for _, im := range images {
		i := bucketIndex(im.Bucket())
		if seen[i] {
			continue
		}
		seen[i] = true
		v.factor[i] = v.bucketFactor(im.Bucket())*0.75 + ratio*0.25
	}
	v.calibrations++
	d := delta
	return v.estimate(images, &d)
}
