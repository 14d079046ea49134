package conformance

import (
	"net/url"
	"os"
	"strings"
	"testing"
)

// deliberate is a difference from DRF that the project chose: the
// fuzzer's test for it, and its id in docs/drf-differences.md, which says
// why and which setting restores DRF's answer.
type deliberate struct {
	id      string
	excuses func(f fuzzRequest, ref, ours view, d []string) bool
}

// deliberateDifferences are the differences the fuzzer may meet and
// accept; every other one fails it.
var deliberateDifferences = []deliberate{
	{
		// The contract puts the security headers on every answer; Django
		// leaves X-Frame-Options off its redirects.
		id: "security-headers-on-redirects",
		excuses: func(f fuzzRequest, ref, ours view, d []string) bool {
			return ref.status == ours.status && ref.status >= 300 && ref.status < 400 &&
				onlyHeaders(d, "X-Frame-Options") && ref.headers["X-Frame-Options"] == ""
		},
	},
	{
		// The sample serves its own host names, not Django's "*".
		id: "allowed-hosts",
		excuses: func(f fuzzRequest, ref, ours view, d []string) bool {
			host := headerOf(f, "Host")
			return host != "" && !strings.Contains(host, " ") && ours.status == 400 &&
				!strings.HasSuffix(strings.ToLower(strings.Split(host, ":")[0]), ".example.com")
		},
	},
	{
		// Go's HTTP server refuses a request that is not HTTP/1.1 (a
		// request target with a broken escape, a Host with a space)
		// before any handler, with its own plain-text 400.
		id: "malformed-requests",
		excuses: func(f fuzzRequest, ref, ours view, d []string) bool {
			_, err := url.PathUnescape(f.path)
			return ours.status == 400 && ours.headers["Content-Type"] == "text/plain; charset=utf-8" &&
				(err != nil || strings.Contains(headerOf(f, "Host"), " "))
		},
	},
	{
		// Where DRF fails with a server error (a cursor whose position
		// does not parse, for one), the framework answers the client's
		// error, or what the input asks when it is no error (a filter by a
		// number beyond the database's integers).
		id: "no-server-errors",
		excuses: func(f fuzzRequest, ref, ours view, d []string) bool {
			return ref.status == 500 && ours.status < 500
		},
	},
	{
		// Beyond DRF, the throttled obtain view also limits the attempts
		// on one username from one client, authenticated or not
		// (authtoken.LoginAttemptThrottle), which DRF's anonymous
		// throttle leaves open to authenticated callers.
		id: "login-attempt-throttle",
		excuses: func(f fuzzRequest, ref, ours view, d []string) bool {
			return f.route == throttledRoute && ours.status == 429 && ref.status != 429
		},
	},
	{
		// Bodies are capped at DATA_UPLOAD_MAX_MEMORY_SIZE, which Django
		// applies to forms only.
		id: "body-limit",
		excuses: func(f fuzzRequest, ref, ours view, d []string) bool {
			return len(f.body) > 2621440 && ours.status == 413
		},
	},
}

// excuse returns the id of the deliberate difference that explains d, ""
// if none does.
func excuse(f fuzzRequest, views [2]view, d []string) string {
	for _, x := range deliberateDifferences {
		if x.excuses(f, views[0], views[1], d) {
			return x.id
		}
	}
	return ""
}

// onlyHeaders is true when every difference of d is in one of the headers names.
func onlyHeaders(d []string, names ...string) bool {
	for _, line := range d {
		kind, _, _ := strings.Cut(line, ":")
		found := false
		for _, n := range names {
			found = found || kind == n
		}
		if !found {
			return false
		}
	}
	return true
}

// headerOf is the last value f sends for the header name, "" if none.
func headerOf(f fuzzRequest, name string) string {
	v := ""
	for _, h := range f.header {
		if strings.EqualFold(h[0], name) {
			v = h[1]
		}
	}
	return v
}

// TestDeliberateDifferencesDocumented holds the fuzzer's list to the
// document: each id it accepts is a section of docs/drf-differences.md.
func TestDeliberateDifferencesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/drf-differences.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range deliberateDifferences {
		if !strings.Contains(string(doc), "(`"+x.id+"`)") {
			t.Errorf("docs/drf-differences.md has no section for the deliberate difference %q", x.id)
		}
	}
}
