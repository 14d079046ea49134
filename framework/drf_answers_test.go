package framework_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// The tests of this file send requests to the sample service and expect
// the answers the DRF reference of the same contract gives
// (conformance/reference at DRF 3.14 on Django 3.2 under gunicorn), which
// were read from it for the same requests to the host 127.0.0.1: the
// sample answers at that level (framework.DRF314).

// answer is what a user sees of a response: its status, the headers
// named ("Name: value", the values of a repeated header joined by ", ";
// "Name:" when it must be absent) and, unless "", its body.
type answer struct {
	status int
	header []string
	body   string
}

func (a answer) check(t *testing.T, what string, r *apitest.Response) {
	t.Helper()
	if r.Status != a.status {
		t.Errorf("%s: status %d, want %d (%.200s)", what, r.Status, a.status, r.Body)
	}
	for _, h := range a.header {
		name, want, _ := strings.Cut(h, ":")
		if got := strings.Join(r.Header.Values(name), ", "); got != strings.TrimSpace(want) {
			t.Errorf("%s: %s %q, want %q", what, name, got, strings.TrimSpace(want))
		}
	}
	if a.body != "" && r.Body != a.body {
		t.Errorf("%s: body %.300s, want %s", what, r.Body, a.body)
	}
}

// sampleClient serves the sample on a fresh SQLite database with the demo
// data, and returns a function that sends a request to the host 127.0.0.1
// with header's fields, and the token keys of alice and admin.
func sampleClient(t *testing.T) (do func(method, path string, header ...string) *apitest.Response, alice, admin string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "sample.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := sample.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := sample.Seed(ctx, db, sample.DefaultBooks); err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for _, name := range []string{"alice", "admin"} {
		u, err := (&auth.Users{DB: db}).GetByUsername(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		tok, _, err := (&authtoken.Tokens{DB: db}).GetOrCreate(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = tok.Key
	}
	h, err := sample.New(ctx, db, sample.Compatibility(framework.DRF314))
	if err != nil {
		t.Fatal(err)
	}
	c := apitest.New(t, h)
	return func(method, path string, header ...string) *apitest.Response {
		t.Helper()
		return c.Do(method, path, "", append([]string{"Host: 127.0.0.1"}, header...)...)
	}, keys["alice"], keys["admin"]
}

const book1 = `{"id":1,"title":"Book 001","author":"Author 1","rating":3,"created":"2024-01-01T01:00:00Z","owner":"admin"}`

// An empty Accept header, or one of empty ranges, is 406 before any
// authentication; repeated Accept lines are joined.
func TestDRFAnswersEmptyAccept(t *testing.T) {
	do, _, _ := sampleClient(t)
	notAcceptable := answer{406, []string{"Content-Type: application/json", "Vary: Accept", "Allow: GET, HEAD, OPTIONS",
		"Content-Length: 57", "WWW-Authenticate:"}, `{"detail":"Could not satisfy the request Accept header."}`}
	for _, header := range [][]string{{"Accept:"}, {"Accept: \t "}, {"Accept: ,"}, {"Accept: , "}} {
		notAcceptable.check(t, "/whoami/ "+strings.Join(header, ","), do("GET", "/whoami/", header...))
	}
	notAcceptable.check(t, "/whoami/?format=json", do("GET", "/whoami/?format=json", "Accept:"))
	notAcceptable.check(t, "bad token", do("GET", "/auth/token-first/", "Accept:", "Authorization: Token bad"))
	whoami := answer{200, []string{"Content-Type: application/json", "Vary: Accept, Cookie"}, `{"username":null,"auth":null,"version":null}`}
	whoami.check(t, "two Accept lines", do("GET", "/whoami/", "Accept: text/html", "Accept: application/json"))
	whoami.check(t, "an empty Accept line and another", do("GET", "/whoami/", "Accept:", "Accept: application/json"))
}

// A method no view declares runs the view's policies, then is 405 with
// DRF's body and Allow; a lower-case method is upper-cased.
func TestDRFAnswersUndeclaredMethods(t *testing.T) {
	do, alice, _ := sampleClient(t)
	for _, tc := range []struct {
		method, path string
		header       []string
		want         answer
	}{
		{"PROPFIND", "/pages/nested-links/", nil, answer{405, []string{"Content-Type: application/json", "Vary: Accept, Cookie",
			"Allow: GET, HEAD, OPTIONS", "Content-Length: 45"}, `{"detail":"Method \"PROPFIND\" not allowed."}`}},
		{"propfind", "/pages/nested-links/", nil, answer{405, []string{"Allow: GET, HEAD, OPTIONS"}, `{"detail":"Method \"PROPFIND\" not allowed."}`}},
		{"FOO", "/pages/nested-links/", nil, answer{405, []string{"Allow: GET, HEAD, OPTIONS", "Content-Length: 40"}, `{"detail":"Method \"FOO\" not allowed."}`}},
		{"TRACE", "/pages/nested-links/", nil, answer{405, []string{"Allow: GET, HEAD, OPTIONS"}, `{"detail":"Method \"TRACE\" not allowed."}`}},
		{"QUERY", "/pages/nested-links/", nil, answer{405, []string{"Allow: GET, HEAD, OPTIONS"}, `{"detail":"Method \"QUERY\" not allowed."}`}},
		{"get", "/books/1/", nil, answer{200, []string{"Allow: GET, PUT, PATCH, DELETE, HEAD, OPTIONS"}, book1}},
		{"PROPFIND", "/auth/token-first/", nil, answer{401, []string{"Content-Type: application/json", "WWW-Authenticate: Token",
			"Vary: Accept", "Allow: GET, HEAD, OPTIONS", "Content-Length: 58"}, `{"detail":"Authentication credentials were not provided."}`}},
		{"PROPFIND", "/auth/token-first/", []string{"Authorization: Token bad"}, answer{401, []string{"WWW-Authenticate: Token",
			"Vary: Accept", "Content-Length: 27"}, `{"detail":"Invalid token."}`}},
		{"PROPFIND", "/auth/session-first/", []string{"Authorization: Basic YWxpY2U6d3Jvbmc="}, answer{403, []string{"WWW-Authenticate:",
			"Vary: Accept, Cookie", "Allow: GET, HEAD, OPTIONS"}, `{"detail":"Authentication credentials were not provided."}`}},
		{"PROPFIND", "/auth/token-first/", []string{"Authorization: Token " + alice}, answer{405, []string{"Vary: Accept",
			"Allow: GET, HEAD, OPTIONS"}, `{"detail":"Method \"PROPFIND\" not allowed."}`}},
		{"PROPFIND", "/nope/", nil, answer{404, []string{"Content-Type: text/html"}, ""}},
		{"PROPFIND", "/books", nil, answer{301, []string{"Location: /books/", "Content-Type: text/html; charset=utf-8"}, ""}},
	} {
		tc.want.check(t, tc.method+" "+tc.path+" "+strings.Join(tc.header, ","), do(tc.method, tc.path, tc.header...))
	}
	r := do("PROPFIND", "/pages/nested-links/", "Accept: text/html")
	answer{405, []string{"Content-Type: text/html; charset=utf-8", "Vary: Accept, Cookie", "Allow: GET, HEAD, OPTIONS"}, ""}.check(t, "the page of PROPFIND", r)
	if !strings.Contains(r.Body, "<b>PROPFIND</b> /pages/nested-links/") || !strings.Contains(r.Body, "HTTP 405 Method Not Allowed") {
		t.Errorf("the page of PROPFIND does not show its request and answer: %.2000s", r.Body)
	}
	// Throttles run before the 405 and count it: the fourth in a minute
	// is throttled.
	for i, want := range []int{405, 405, 405, 429} {
		r := do("PROPFIND", "/api-token-auth-throttled/")
		answer{want, []string{"Allow: POST, OPTIONS", "Vary: Cookie"}, ""}.check(t, "throttled PROPFIND", r)
		if want == 429 && (r.Header.Get("Retry-After") != "60" || r.Body != `{"detail":"Request was throttled. Expected available in 60 seconds."}`) {
			t.Errorf("request %d: %s %s", i+1, r.Header.Get("Retry-After"), r.Body)
		}
	}
}

// An escaped path is routed decoded: escaped letters and "/" are the
// characters; the links of the answers are the decoded path escaped again
// as Django escapes it.
func TestDRFAnswersEscapedPaths(t *testing.T) {
	do, _, _ := sampleClient(t)
	detail := answer{200, []string{"Content-Type: application/json", "Allow: GET, PUT, PATCH, DELETE, HEAD, OPTIONS", "Content-Length: 107"}, book1}
	for _, path := range []string{"/books/%31/", "/books%2F1/", "/books/1%2F", "/books/%31/?format=json"} {
		detail.check(t, path, do("GET", path))
	}
	for path, want := range map[string]answer{
		"/books/%2531/":    {404, nil, `{"detail":"Not found."}`},
		"/books/a%2Fb/":    {404, []string{"Content-Type: text/html"}, ""},
		"/ns/%76%31/info/": {200, []string{"Allow: GET, HEAD, OPTIONS"}, `{"version":"v1","self":"http://127.0.0.1/ns/v1/info/"}`},
		"/ns/%76%33/info/": {404, nil, `{"detail":"Invalid version in URL path. Does not match any version namespace."}`},
		"/books/%31":       {301, []string{"Location: /books/1/"}, ""},
		"/pages/cursor%2F": {200, nil, ""},
		"/url/%76%32/books/1/": {200, nil,
			`{"id":1,"title":"Book 001","author":"Author 1","rating":3,"url":"http://127.0.0.1/url/v2/books/1/"}`},
		"/pages/link%2Dheader/?page=2": {200, []string{`Link: <http://127.0.0.1/pages/link-header/?page=3>; rel="next", <http://127.0.0.1/pages/link-header/>; rel="prev"`}, ""},
	} {
		want.check(t, path, do("GET", path))
	}
	r := do("GET", "/pages/page%2Dnumber/?page=2")
	if !strings.HasPrefix(r.Body, `{"count":100,"next":"http://127.0.0.1/pages/page-number/?page=3","previous":"http://127.0.0.1/pages/page-number/","results":[{"id":6,`) {
		t.Errorf("/pages/page%%2Dnumber/?page=2: %d %.200s", r.Status, r.Body)
	}
}

// The APPEND_SLASH redirect escapes its Location as Django does.
func TestDRFAnswersAppendSlash(t *testing.T) {
	do, _, _ := sampleClient(t)
	for path, location := range map[string]string{
		"/books/;x":                              "/books/%3Bx/",
		"/books/%3Bx":                            "/books/%3Bx/",
		"/books/a=b":                             "/books/a%3Db/",
		"/books/%E2%9C%93":                       "/books/%E2%9C%93/",
		"/books/%FF":                             "/books/%25FF/",
		"/books/a%20b":                           "/books/a%20b/",
		"/books/%25":                             "/books/%25/",
		"/books/!*'()~":                          "/books/!*'()~/",
		"/books/a%3Fb":                           "/books/a%3Fb/",
		"/books/a%23b":                           "/books/a%23b/",
		"/ns/%FF/info":                           "/ns/%25FF/info/",
		"/books%2F1":                             "/books/1/",
		"/ns/%76%31/info?page=%E2%9C%93&a=b%20c": "/ns/v1/info/?page=%E2%9C%93&a=b%20c",
		`/books/a?x="y"&z=%ZZ`:                   "/books/a/?x=%22y%22&z=%ZZ",
		"/books/a?b=<x>|{y}^`z\\":                "/books/a/?b=%3Cx%3E%7C%7By%7D%5E%60z%5C",
		"/pages/page%2Dnumber?page=2":            "/pages/page-number/?page=2",
	} {
		answer{301, []string{"Location: " + location, "Content-Type: text/html; charset=utf-8"}, ""}.check(t, path, do("GET", path))
	}
}

// The browsable page of a DELETE is answered 200, and shows the 204.
func TestDRFAnswersBrowsableDelete(t *testing.T) {
	do, _, admin := sampleClient(t)
	r := do("DELETE", "/books/1/", "Accept: text/html", "Authorization: Token "+admin)
	answer{200, []string{"Content-Type: text/html; charset=utf-8", "Vary: Accept, Cookie", "Allow: GET, PUT, PATCH, DELETE, HEAD, OPTIONS"}, ""}.check(t, "DELETE /books/1/", r)
	if !strings.Contains(r.Body, "HTTP 204 No Content") {
		t.Errorf("the page does not show the 204: %.3000s", r.Body)
	}
	answer{404, nil, `{"detail":"Not found."}`}.check(t, "GET /books/1/ after", do("GET", "/books/1/"))
	answer{204, []string{"Vary: Accept, Cookie", "Allow: GET, PUT, PATCH, DELETE, HEAD, OPTIONS", "Content-Type:"}, ""}.check(t, "DELETE /books/3/ in JSON",
		do("DELETE", "/books/3/", "Authorization: Token "+admin))
}

// The browsable page shows the request line with Django's full path: the
// decoded path escaped again, so "%2D" is "-".
func TestDRFAnswersBrowsableRequestLine(t *testing.T) {
	do, _, _ := sampleClient(t)
	r := do("GET", "/pages/page%2Dnumber/?page=2&x=%22a%22", "Accept: text/html")
	answer{200, []string{"Content-Type: text/html; charset=utf-8", "Vary: Accept, Cookie", "Allow: GET, HEAD, OPTIONS"}, ""}.check(t, "the page", r)
	mustContain := []string{
		"<b>GET</b> /pages/page-number/?page=2&amp;x=%22a%22</pre>",
		`href="/pages/page-number/?format=json&amp;page=2&amp;x=%22a%22"`,
	}
	for _, want := range mustContain {
		if !strings.Contains(r.Body, want) {
			t.Errorf("the page lacks %s: %.3000s", want, r.Body)
		}
	}
}

// djangoNotFound is Django's 404 page (DEBUG off), what the reference
// answers a path that no URL pattern matches.
const djangoNotFound = "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>\n"

// A path that would fill a URL parameter with nothing matches no route:
// Django's converters (<str:version>, the router's [^/.]+ lookup) never
// match an empty segment, so the reference answers Django's 404 page to
// every method, with or without the final slash (APPEND_SLASH finds no
// route for the slashed path either), where the view would answer its own
// JSON 404 ("Invalid version in URL path.") or the object's. A segment of
// one space is a value, and the view's answer.
func TestDRFAnswersEmptyPathSegments(t *testing.T) {
	do, _, _ := sampleClient(t)
	page := answer{404, []string{"Content-Type: text/html", "Allow:", "Vary:", "Location:", "Set-Cookie:",
		"X-Frame-Options: DENY", "X-Content-Type-Options: nosniff", "Referrer-Policy: same-origin"}, djangoNotFound}
	head := answer{page.status, page.header, ""}
	for _, path := range []string{
		"/ns//info/", "/ns//info", "/url//info/", "/url//info", "/url//books/", "/url//books",
		"/books//", "/url/v1/books//", "/url//books/1/", "/url//books/1", "/url/v1//books/",
		"/beyond/url//resolve/", "/beyond/url//resolve", "/url/%2F/info/", "/books/%2F/", "/books/%2F",
		"/url//info/?version=v1", "/url//books?page=2", "/ns/v1//info/", "/ns/v1//info",
	} {
		for _, method := range []string{"GET", "PUT", "POST", "PATCH", "DELETE", "OPTIONS", "PROPFIND"} {
			page.check(t, method+" "+path, do(method, path))
		}
		head.check(t, "HEAD "+path, do("HEAD", path))
	}
	page.check(t, "the browsable page", do("GET", "/url//info/", "Accept: text/html"))
	page.check(t, "?format=json", do("GET", "/books//?format=json"))
	page.check(t, "a bad token", do("GET", "/url//info/", "Authorization: Token bad"))
	answer{404, []string{"Content-Type: text/html", "Vary: Cookie",
		`Set-Cookie: sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax`}, djangoNotFound}.check(
		t, "a sessionid too short", do("GET", "/url//info", "Cookie: sessionid=abc"))
	for path, want := range map[string]answer{
		"/url/%20/info/": {404, []string{"Content-Type: application/json", "Vary: Accept", "Allow: GET, HEAD, OPTIONS"},
			`{"detail":"Invalid version in URL path."}`},
		"/ns/%20/info/": {404, []string{"Content-Type: application/json", "Vary: Accept", "Allow: GET, HEAD, OPTIONS"},
			`{"detail":"Invalid version in URL path. Does not match any version namespace."}`},
		"/books/%20/": {404, []string{"Content-Type: application/json", "Vary: Accept, Cookie", "Allow: GET, PUT, PATCH, DELETE, HEAD, OPTIONS"},
			`{"detail":"Not found."}`},
		"/url/v1/books/%20/": {404, []string{"Allow: GET, HEAD, OPTIONS"}, `{"detail":"Not found."}`},
		"/url/v1/info":       {301, []string{"Location: /url/v1/info/"}, ""},
		"/ns/v1/info":        {301, []string{"Location: /ns/v1/info/"}, ""},
	} {
		want.check(t, path, do("GET", path))
	}
}

// TestDRFAnswersRepeatedParameters: a repeated query parameter is read by
// its last value, as DRF's query_params.get, by every policy.
func TestDRFAnswersRepeatedParameters(t *testing.T) {
	do, _, _ := sampleClient(t)
	answer{404, []string{"Content-Type: application/json"}, `{"detail":"Not found."}`}.
		check(t, "format api then xml", do("GET", "/books/99/?format=api&format=xml"))
	answer{200, []string{"Content-Type: application/json"}, `{"version":"v1","self":"http://127.0.0.1/accept/info/?format=json"}`}.
		check(t, "format xml then json", do("GET", "/accept/info/?format=xml&format=json"))
	answer{200, []string{"Content-Type: application/json"}, `{"version":"v1","self":"http://127.0.0.1/query/info/?version=v1"}`}.
		check(t, "version v2 then v1", do("GET", "/query/info/?version=v2&version=v1"))
}

// TestDRFAnswersPathDecodedOnce: a path is decoded once, as Django decodes
// path_info, so an escaped "%" stays a "%" in the version.
func TestDRFAnswersPathDecodedOnce(t *testing.T) {
	do, _, _ := sampleClient(t)
	invalid := answer{404, []string{"Content-Type: application/json"}, `{"detail":"Invalid version in URL path."}`}
	invalid.check(t, "/url/%2576%2532/info/", do("GET", "/url/%2576%2532/info/"))
	invalid.check(t, "/url/v%252/info/", do("GET", "/url/v%252/info/"))
	answer{200, []string{"Content-Type: application/json"}, `{"version":"v2","self":"http://127.0.0.1/url/v2/info/"}`}.
		check(t, "/url/%76%32/info/", do("GET", "/url/%76%32/info/"))
}
