package mediatype

import (
	"mime"
	"testing"
)

// TestOfIsMimes: the types are the ones mime.TypeByExtension gives
// (Go's own table for .css and .js, which the system's database does not
// override), "" for another extension.
func TestOfIsMimes(t *testing.T) {
	for _, ext := range []string{".css", ".js"} {
		if got, want := Of(ext), mime.TypeByExtension(ext); got != want {
			t.Errorf("Of(%q) = %q, mime gives %q", ext, got, want)
		}
	}
	if got := Of(".txt"); got != "text/plain; charset=utf-8" {
		t.Errorf(`Of(".txt") = %q`, got)
	}
	if got := Of(".LICENSE"); got != "" {
		t.Errorf(`Of(".LICENSE") = %q, want ""`, got)
	}
}
