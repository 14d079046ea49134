package pycompat

import (
	"testing"
)

// ascii is every ASCII character, NUL to DEL.
func ascii() string {
	b := make([]byte, 128)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}

// TestEscapeURIPath pins Django 3.2's escape_uri_path: over every ASCII
// character (its safe set is letters, digits and "/:@&+$,-_.!~*'()"), on
// text beyond ASCII, and on bytes that are not UTF-8, which Django never
// holds in a path (RepercentBrokenUnicode makes them text first).
func TestEscapeURIPath(t *testing.T) {
	for in, want := range map[string]string{
		// escape_uri_path(''.join(chr(i) for i in range(128)))
		ascii(): "%00%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F%10%11%12%13%14%15%16%17%18%19%1A%1B%1C%1D%1E%1F" +
			"%20!%22%23$%25&'()*+,-./0123456789:%3B%3C%3D%3E%3F@ABCDEFGHIJKLMNOPQRSTUVWXYZ%5B%5C%5D%5E_%60" +
			"abcdefghijklmnopqrstuvwxyz%7B%7C%7D~%7F",
		"/books/;x/":  "/books/%3Bx/",
		"/books/a=b/": "/books/a%3Db/",
		"/books/✓/":   "/books/%E2%9C%93/",
		"/é/":         "/%C3%A9/",
		"/😀/":         "/%F0%9F%98%80/",
		"/a b/":       "/a%20b/",
		"/%FF/":       "/%25FF/",
		"/\xff/":      "/%FF/",
		"":            "",
		"/pages/off/": "/pages/off/",
	} {
		if got := EscapeURIPath(in); got != want {
			t.Errorf("EscapeURIPath(%q) = %q, want %q", in, got, want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { _ = EscapeURIPath("/books/1/") }); n != 0 {
		t.Errorf("a path with nothing to escape costs %v allocations", n)
	}
}

// TestIRIToURI pins Django 3.2's iri_to_uri over every ASCII character and
// on text beyond ASCII: "%" and RFC 3986's reserved characters are kept.
func TestIRIToURI(t *testing.T) {
	for in, want := range map[string]string{
		// iri_to_uri(''.join(chr(i) for i in range(128)))
		ascii(): "%00%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F%10%11%12%13%14%15%16%17%18%19%1A%1B%1C%1D%1E%1F" +
			"%20!%22#$%&'()*+,-./0123456789:;%3C=%3E?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[%5C]%5E_%60" +
			"abcdefghijklmnopqrstuvwxyz%7B%7C%7D~%7F",
		`x="y"&z=%ZZ`: "x=%22y%22&z=%ZZ",
		"q=✓":         "q=%E2%9C%93",
		"page=2":      "page=2",
	} {
		if got := IRIToURI(in); got != want {
			t.Errorf("IRIToURI(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRepercentBrokenUnicode pins Django 3.2's repercent_broken_unicode:
// bytes outside valid UTF-8 (a stray byte, a cut sequence, a surrogate,
// an overlong form) become %XX text; valid text, U+FFFD included, stays.
func TestRepercentBrokenUnicode(t *testing.T) {
	for in, want := range map[string]string{
		"/\xff/":             "/%FF/",
		"/\xe2\x9c/":         "/%E2%9C/",
		"/\xed\xa0\x80/":     "/%ED%A0%80/",
		"/\xc0\xaf/":         "/%C0%AF/",
		"/\xf0\x9f\x98/x":    "/%F0%9F%98/x",
		"/\x80abc\xfe":       "/%80abc%FE",
		"/\xe2\x9c\x93/":     "/\xe2\x9c\x93/",
		"/\xef\xbf\xbd/\xff": "/\xef\xbf\xbd/%FF",
		"/books/%31/":        "/books/%31/",
	} {
		if got := RepercentBrokenUnicode(in); got != want {
			t.Errorf("RepercentBrokenUnicode(%q) = %q, want %q", in, got, want)
		}
	}
	// escape_uri_path(repercent_broken_unicode(b'/\xff/').decode()), the
	// APPEND_SLASH redirect of /books/%FF.
	if got := EscapeURIPath(RepercentBrokenUnicode("/books/\xff")); got != "/books/%25FF" {
		t.Errorf("the path of /books/%%FF escapes to %q", got)
	}
}
