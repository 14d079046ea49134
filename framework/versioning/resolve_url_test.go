package versioning_test

import (
	"net/url"
	"testing"
)

// TestResolveUnparsableURL: a URL that does not parse is 400 "Enter a
// valid URL." whatever the scheme, and a query is read as Django reads
// one (a broken escape kept, ";" as text).
func TestResolveUnparsableURL(t *testing.T) {
	srv := resolveServer(t)
	q := func(u, to string) string { return "?" + url.Values{"url": {u}, "to": {to}}.Encode() }
	const invalid = `{"detail":"Enter a valid URL."}`
	check(t, srv, cases{
		{call{"/url/v1/resolve/" + q("\r\n", "v1"), nil}, 400, invalid},
		{call{"/url/v1/resolve/" + q("%zz", "v1"), nil}, 400, invalid},
		{call{"/query/resolve/" + q("\x7f", "v1"), nil}, 400, invalid},
		{call{"/host/resolve/" + q("http://[::1", "v1"), nil}, 400, invalid},
		{call{"/ns/v1/resolve/" + q("/ns/v2/books/\t/", "v1"), nil}, 400, invalid},
		{call{"/query/resolve/" + q("/query/books/5/?x=%zz;y&version=v2", "v1"), nil}, 200,
			`{"name":"query-book","params":{"pk":"5"},"version":"v2","to":"{base}/query/books/5/?version=v1&x=%25zz%3By"}`},
	})
}
