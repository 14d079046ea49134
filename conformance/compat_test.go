package conformance

import (
	"path/filepath"
	"strings"
	"testing"
)

// compatTable holds the requests whose answers differ between DRF 3.14 on
// Django 3.2 and DRF 3.18 on Django 5.2 (docs/django.md's table), each
// with the DRF or Django change that made the difference.
var compatTable = []row{
	// Django 4.0's SecurityMiddleware (SECURE_CROSS_ORIGIN_OPENER_POLICY).
	{name: "Cross-Origin-Opener-Policy on every answer", path: "/whoami/"},
	// DRF 3.15 #8578: an empty page number is page 1.
	{name: "empty page", path: "/books/?page="},
	{name: "empty page of a page-number view", path: "/pages/page-number/?page="},
	{name: "empty page of a custom page-number style", path: "/pages/link-header/?page="},
	// DRF 3.15 #8051: Django's Http404 keeps its message.
	{name: "a missing book names the model", path: "/books/99999/"},
	{name: "a missing versioned book names the model", path: "/url/v2/books/99999/"},
	// Django 4.1 (ticket #32902): CSRF failures say what is wrong.
	{name: "session without a CSRF token", method: "POST", path: "/auth/csrf/", jar: "alice"},
	{name: "session with a wrong CSRF token", method: "POST", path: "/auth/csrf/", jar: "alice", header: []string{"X-CSRFToken: " + strings.Repeat("a", 64)}},
	{name: "session with a short CSRF token", method: "POST", path: "/auth/csrf/", jar: "alice", header: []string{"X-CSRFToken: abc"}},
	{name: "session with a CSRF token of other characters", method: "POST", path: "/auth/csrf/", jar: "alice", header: []string{"X-CSRFToken: " + strings.Repeat("a", 63) + "-"}},
	{name: "session with a wrong CSRF form field", method: "POST", path: "/auth/csrf/", jar: "alice", body: "csrfmiddlewaretoken=" + strings.Repeat("b", 32)},
	// Django 4.1: the CSRF failure page has a charset.
	{name: "logout without a CSRF cookie", method: "POST", path: "/api-auth/logout/", jar: "nocookie"},
	// DRF 3.15 #8790: credentials without a colon are badly encoded.
	{name: "Basic credentials without a colon", path: "/auth/basic-first/", header: []string{"Authorization: Basic YWxpY2U="}},
	{name: "Basic credentials decoding to nothing", path: "/auth/basic-first/", header: []string{"Authorization: Basic !!!"}},
	// Django 5.0 (ticket #15619): logging out takes a POST; alice stays
	// logged in on Django 5.2 until the last row.
	{name: "logout by GET", path: "/api-auth/logout/"},
	{name: "logout's OPTIONS", method: "OPTIONS", path: "/api-auth/logout/"},
	{name: "logout by PUT", method: "PUT", path: "/api-auth/logout/", jar: "alice", header: []string{csrfHeader}},
	// Django 4.0's parse_datetime (datetime.fromisoformat) under
	// django-filter 25.1: a bare date is a date-time.
	{name: "a bare date for a date-time filter", path: "/eco/books/?created__gte=2024-01-03"},
	// simplejwt 5.3: "Token is invalid or expired" split in two.
	{name: "verify a token that is not a JWT", method: "POST", path: "/eco/jwt/token/verify/", body: `{"token":"abc"}`},
	// Django 4.1's RedirectURLMixin: an unsafe next leads to LOGOUT_REDIRECT_URL.
	{name: "logout to an unsafe next", method: "POST", path: "/api-auth/logout/?next=http://evil.example/", jar: "alice", header: []string{csrfHeader}},
}

// TestCompatibility sends each row of compatTable to both oracles and to
// the sample at both levels: the sample at each level must answer as its
// oracle does, and the two oracles must differ (else the row pins
// nothing).
func TestCompatibility(t *testing.T) {
	oracles := []oracle{drf314, drf318}
	var refs, samples [2]*side
	for i, o := range oracles {
		refs[i] = newSide("reference "+o.level.String(), startOracle(t, o).base)
		samples[i] = newSide("sample "+o.level.String(), startSampleAt(t, filepath.Join(t.TempDir(), "db.sqlite3"), o))
	}
	for _, r := range compatTable {
		t.Run(r.name, func(t *testing.T) {
			var views [2][2]view // [oracle][reference, sample]
			for i := range oracles {
				for j, s := range []*side{refs[i], samples[i]} {
					a, err := s.send(r)
					if err != nil {
						t.Fatalf("%s: %v", s.name, err)
					}
					views[i][j] = s.view(a)
				}
				if d := differences(views[i][0], views[i][1]); len(d) > 0 {
					t.Errorf("%s %s: the sample at %s differs from its reference:\n  %s", r.verb(), r.target(), oracles[i].level, strings.Join(d, "\n  "))
				}
			}
			if len(differences(views[0][0], views[1][0])) == 0 {
				t.Errorf("%s %s: both references answer alike; the row pins no difference", r.verb(), r.target())
			}
		})
	}
}
