package schema

import "github.com/galaxy-stack/conform/core/canon"

// utf16Len is the unit of "minLength" and "maxLength": UTF-16 code units,
// as JavaScript counts (CONTRACTS conventions, DECISIONS 38).
func utf16Len(s string) int { return canon.UTF16Len(s) }

// compareUTF16 orders strings by their UTF-16 code units (CONTRACTS §1.1).
func compareUTF16(a, b string) int { return canon.CompareText(a, b) }
