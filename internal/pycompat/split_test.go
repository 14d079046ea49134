package pycompat

import (
	"slices"
	"testing"
)

// The words bytes.split() gives in Python 3.11 for each input.
func TestSplitBytes(t *testing.T) {
	for in, want := range map[string][]string{
		"":                       nil,
		" \t ":                   nil,
		"Bearer abc":             {"Bearer", "abc"},
		"  Bearer\t\vabc \f d ":  {"Bearer", "abc", "d"},
		"Bearer\x1cabc":          {"Bearer\x1cabc"},
		"Bearer\u00a0abc":        {"Bearer\u00a0abc"},
		"Bearer\xffabc \r\nnext": {"Bearer\xffabc", "next"},
	} {
		if got := SplitBytes(in); !slices.Equal(got, want) {
			t.Errorf("SplitBytes(%q) = %q, want %q", in, got, want)
		}
	}
}
