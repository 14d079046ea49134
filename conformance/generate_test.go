package conformance

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
)

// fuzzRequest is one request the generator drew: the parts the shrinker
// takes away one at a time, and the contract route it aims at.
type fuzzRequest struct {
	route  string // the contract's route, for the buckets
	method string
	path   string // as sent, escapes and all
	query  []queryPair
	header [][2]string
	body   string
	jar    string
}

// queryPair is one name=value of a query string, as sent; bare sends the
// name alone, without "=".
type queryPair struct {
	name, value string
	bare        bool
}

// raw is the request as the sides send it.
func (f fuzzRequest) raw() rawRequest {
	target := f.path
	if len(f.query) > 0 {
		parts := make([]string, len(f.query))
		for i, p := range f.query {
			parts[i] = p.name
			if !p.bare {
				parts[i] += "=" + p.value
			}
		}
		target += "?" + strings.Join(parts, "&")
	}
	return rawRequest{method: f.method, target: target, header: f.header, body: f.body, jar: f.jar}
}

// generator draws requests from the contract of sample-api.md: every
// route and method, query parameters of every kind (repeated, empty,
// broken escapes, "+", Unicode, long), credentials good, bad and garbled,
// two schemes at once, Accept and Content-Type headers, and JSON, form,
// multipart and garbled bodies. The same seed draws the same requests.
type generator struct {
	rnd *rand.Rand
	// writes lets the generator change books (create, update, delete);
	// without it, books are only read.
	writes bool
}

func newGenerator(seed uint64, writes bool) *generator {
	return &generator{rnd: rand.New(rand.NewPCG(seed, 0x5eed)), writes: writes}
}

// pick returns one of xs at random.
func pick[T any](g *generator, xs ...T) T { return xs[g.rnd.IntN(len(xs))] }

// chance is true with probability p.
func (g *generator) chance(p float64) bool { return g.rnd.Float64() < p }

// target is a route of the contract and what may be sent to it.
type target struct {
	route  string
	weight int
	path   func(g *generator) string
	// params names the query parameters the route reads.
	params []string
	// methods the route answers besides GET, HEAD and OPTIONS.
	methods []string
	// mutates: its unsafe methods change books.
	mutates bool
	// body draws a body for POST, PUT and PATCH.
	body func(g *generator) (contentType, body string)
}

// throttledRoute is the contract's throttled view, whose answers depend on
// the requests before.
const throttledRoute = "/api-token-auth-throttled/"

func fixed(p string) func(*generator) string { return func(*generator) string { return p } }

var (
	pageParams   = []string{"page", "page_size"}
	offsetParams = []string{"limit", "offset"}
	cursorParams = []string{"cursor", "page_size"}
	// ecoBooksParams are the parameters /eco/books/ reads: the BookFilter's,
	// ordering, search and the page.
	ecoBooksParams = []string{"rating", "rating__gte", "rating__lte", "rating__in", "title", "title__icontains", "author", "author__in",
		"created__gte", "created__lte", "created__date", "owner__username", "ordering", "search", "page"}
	versionValues = []string{"v1", "v2", "v3", "", "V1", "%76%31", "v2%zz", "%zz", "v1%2F", "%C3%A9"}
)

var targets = []target{
	{route: "/whoami/", weight: 8, path: fixed("/whoami/"), body: credentialsBody},
	{route: "/api-token-auth/", weight: 6, path: fixed("/api-token-auth/"), methods: []string{"POST"}, body: credentialsBody},
	{route: "/api-token-auth-extra/", weight: 3, path: fixed("/api-token-auth-extra/"), methods: []string{"POST"}, body: credentialsBody},
	{route: throttledRoute, weight: 2, path: fixed(throttledRoute), methods: []string{"POST"}, body: credentialsBody},
	{route: "/api-auth/login/", weight: 3, path: fixed("/api-auth/login/"), methods: []string{"POST"}, body: loginBody},
	{route: "/api-auth/logout/", weight: 1, path: fixed("/api-auth/logout/"), methods: []string{"POST"}, body: loginBody},
	{route: "/auth/token-first/", weight: 4, path: fixed("/auth/token-first/")},
	{route: "/auth/basic-first/", weight: 4, path: fixed("/auth/basic-first/")},
	{route: "/auth/session-first/", weight: 4, path: fixed("/auth/session-first/")},
	{route: "/auth/header/", weight: 3, path: fixed("/auth/header/")},
	{route: "/auth/header-challenge/", weight: 3, path: fixed("/auth/header-challenge/")},
	{route: "/auth/admin-only/", weight: 3, path: fixed("/auth/admin-only/")},
	{route: "/auth/csrf/", weight: 4, path: fixed("/auth/csrf/"), methods: []string{"POST"}, body: bookBody},
	{route: "/books/", weight: 10, path: fixed("/books/"), params: pageParams, methods: []string{"POST"}, mutates: true, body: bookBody},
	{route: "/books/{id}/", weight: 10, path: bookPath("/books/"), methods: []string{"PUT", "PATCH", "DELETE"}, mutates: true, body: bookBody},
	{route: "/pages/page-number/", weight: 6, path: fixed("/pages/page-number/"), params: pageParams},
	{route: "/pages/limit-offset/", weight: 6, path: fixed("/pages/limit-offset/"), params: offsetParams},
	{route: "/pages/cursor/", weight: 6, path: fixed("/pages/cursor/"), params: cursorParams},
	{route: "/pages/cursor-rating/", weight: 4, path: fixed("/pages/cursor-rating/"), params: cursorParams},
	{route: "/pages/cursor-orderable/", weight: 5, path: fixed("/pages/cursor-orderable/"), params: append([]string{"ordering"}, cursorParams...)},
	{route: "/pages/off/", weight: 2, path: fixed("/pages/off/")},
	{route: "/pages/manual/", weight: 3, path: fixed("/pages/manual/"), params: pageParams},
	{route: "/pages/link-header/", weight: 3, path: fixed("/pages/link-header/"), params: pageParams},
	{route: "/pages/nested-links/", weight: 3, path: fixed("/pages/nested-links/"), params: pageParams},
	{route: "/url/{version}/info/", weight: 4, path: func(g *generator) string { return "/url/" + pick(g, versionValues...) + "/info/" }},
	{route: "/ns/{version}/info/", weight: 4, path: func(g *generator) string { return "/ns/" + pick(g, versionValues...) + "/info/" }},
	{route: "/query/info/", weight: 4, path: fixed("/query/info/"), params: []string{"version"}},
	{route: "/accept/info/", weight: 4, path: fixed("/accept/info/")},
	{route: "/host/info/", weight: 3, path: fixed("/host/info/")},
	{route: "/custom/info/", weight: 3, path: fixed("/custom/info/")},
	{route: "/url/{version}/books/", weight: 4, path: func(g *generator) string { return "/url/" + pick(g, versionValues...) + "/books/" }, params: pageParams},
	{route: "/url/{version}/books/{id}/", weight: 3, path: func(g *generator) string {
		return bookPath("/url/" + pick(g, "v1", "v2", "v3") + "/books/")(g)
	}},
	{route: "/eco/books/", weight: 6, path: fixed("/eco/books/"), params: ecoBooksParams},
	// simplejwt's views (the tokens differ per side: only bad ones are
	// sent, and obtained pairs are compared by their shape), HasAPIKey and
	// DjangoModelPermissions.
	{route: "/eco/jwt/token/", weight: 3, path: fixed("/eco/jwt/token/"), methods: []string{"POST"}, body: credentialsBody},
	{route: "/eco/jwt/token/refresh/", weight: 2, path: fixed("/eco/jwt/token/refresh/"), methods: []string{"POST"}, body: jwtBody("refresh")},
	{route: "/eco/jwt/token/verify/", weight: 2, path: fixed("/eco/jwt/token/verify/"), methods: []string{"POST"}, body: jwtBody("token")},
	{route: "/eco/jwt/token/blacklist/", weight: 2, path: fixed("/eco/jwt/token/blacklist/"), methods: []string{"POST"}, body: jwtBody("refresh")},
	{route: "/eco/jwt/whoami/", weight: 3, path: fixed("/eco/jwt/whoami/")},
	{route: "/eco/api-key/books/", weight: 3, path: fixed("/eco/api-key/books/"), params: pageParams},
	{route: "/eco/perms/books/", weight: 3, path: fixed("/eco/perms/books/"), params: pageParams, methods: []string{"POST"}, mutates: true, body: bookBody},
	{route: "/eco/perms/books/{id}/", weight: 3, path: bookPath("/eco/perms/books/"), methods: []string{"PUT", "PATCH", "DELETE"}, mutates: true, body: bookBody},
	{route: "(no route)", weight: 3, path: func(g *generator) string {
		return pick(g, "/", "/nope/", "/books", "/whoami", "/pages/cursor", "/books/1", "/books/;x", "/b%C3%A9/", "/books/1/extra/", "/url/v1/info")
	}},
}

// bookPath draws the path of a book under prefix: one that exists, one
// that does not, a bad key, an escaped one.
func bookPath(prefix string) func(*generator) string {
	return func(g *generator) string {
		id := pick(g, "1", "2", "3", "7", "50", "99", "100", "101", "102", "0", "-1", "abc", "%31", "1.0", "%31%30", "99999999999999999999", "%C3%A9")
		return prefix + id + "/"
	}
}

// queryValue draws a value for the query parameter name.
func (g *generator) queryValue(name string) string {
	common := []string{"", "0", "1", "-1", "abc", "%zz", "1%zz", "+", "%2B", "%C3%A9", "%FF", "1.5", "%201", "1%20", strings.Repeat("9", 25), strings.Repeat("x", 300)}
	var typical []string
	switch name {
	case "page":
		typical = []string{"1", "2", "3", "10", "11", "20", "last", "LAST", "9999"}
	case "page_size", "limit":
		typical = []string{"1", "3", "5", "10", "20", "21", "100"}
	case "offset":
		typical = []string{"0", "5", "10", "95", "100", "1000"}
	case "cursor":
		typical = []string{
			b64("o=5"), b64("o=1&r=1"), b64("p=2024-01-03 00:00:00+00:00"), b64("p=2024-01-03+00%3A00%3A00%2B00%3A00"),
			b64("o=2&p=3"), b64("r=1&p=x"), b64("o=-1"), b64("o=abc"), "bad", url.QueryEscape(b64("o=5&p=2")),
		}
	case "ordering":
		typical = []string{"title", "-title", "created", "-created", "id", "-id", "rating", "-created,id", "nope", "title,-id"}
	case "rating", "rating__gte", "rating__lte":
		typical = []string{"1", "3", "5", "2.5", "-1", "3.0", "+3", "1e1", "1_0", "%D9%A3", "x", "%20", "NaN", "1e30", "0x1"}
	case "rating__in", "author__in":
		typical = []string{"1,2", "1,,5", ",", "2.5,x", "Author%201,Author%202", "Author%201,%20Author%203", "1%2C2"}
	case "title", "title__icontains", "author", "search":
		typical = []string{"Book%20001", "book", "BOOK%2001", "Author%201", "%25", "_", "00", "author%201,%200", "%20Book%20002%20"}
	case "created__gte", "created__lte":
		typical = []string{"2024-01-04T00:00:00Z", "2024-01-02", "2024-01-03%2012:00", "2024-1-4T0:0", "2024-01-04T00:00:00%2B01:00",
			"2024-01-04T00:00:00.5Z", "2024-13-01T00:00", "2024-01-04T00:00:00,123", "bad"}
	case "created__date":
		typical = []string{"2024-01-04", "01/04/2024", "1/4/24", "Jan%204%202024", "4%20January,%202024", "2024-1-4", "2024-02-30", "x"}
	case "owner__username":
		typical = []string{"alice", "admin", "ALICE", "bob", "nobody"}
	case "format":
		typical = []string{"json", "api", "xml", "JSON", "openapi"}
	case "version":
		typical = versionValues
	}
	if len(typical) > 0 && g.chance(0.7) {
		return pick(g, typical...)
	}
	return pick(g, common...)
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// next draws the next request.
func (g *generator) next() fuzzRequest {
	t := g.target()
	f := fuzzRequest{route: t.route, path: t.path(g)}
	f.method = g.method(t)

	// Query parameters: the route's own, any route's, and junk.
	n := g.rnd.IntN(4)
	if n == 0 && len(t.params) > 0 && g.chance(0.3) {
		n = 1
	}
	for range n {
		name := pick(g, "format", "page", "x", "", "%zz", "version", "page%5Fsize")
		if len(t.params) > 0 && g.chance(0.6) {
			name = pick(g, t.params...)
		}
		f.query = append(f.query, queryPair{name: name, value: g.queryValue(name), bare: g.chance(0.03)})
		if g.chance(0.1) {
			f.query = append(f.query, queryPair{name: name, value: g.queryValue(name)}) // repeated
		}
	}

	g.credentials(&f)
	if g.chance(0.35) {
		f.header = append(f.header, [2]string{"Accept", pick(g,
			"application/json", "text/html", "*/*", "", " ", "application/xml", "application/json; version=v2",
			"application/json; version=v3", "application/json; version=", "application/json; indent=2", "text/html;q=0.5, application/json",
			"garbage", "application/*", "text/*", "text/html, application/xhtml+xml, */*;q=0.8", "application/json; version=v1, text/html")})
	}
	switch {
	case t.route == "/custom/info/" && g.chance(0.7):
		f.header = append(f.header, [2]string{"X-API-Version", pick(g, "v1", "v2", "", "v3", "anything goes", "\u00e9")})
	// A host the sample refuses (a deliberate difference) would reach
	// DRF's throttle and not the sample's, and every later answer of the
	// throttled view would differ: that view gets none.
	case t.route == "/host/info/" && g.chance(0.7), t.route != throttledRoute && g.chance(0.03):
		f.header = append(f.header, [2]string{"Host", pick(g, "v1.example.com", "v2.example.com", "v3.example.com", "example.com", "localhost", "127.0.0.1", "V2.EXAMPLE.COM", "v2.example.com:80", "evil.test", "bad host")})
	}
	if f.method == "POST" || f.method == "PUT" || f.method == "PATCH" || g.chance(0.03) {
		body := t.body
		if body == nil {
			body = pick(g, bookBody, credentialsBody)
		}
		ct, b := body(g)
		if ct != "" {
			f.header = append(f.header, [2]string{"Content-Type", ct})
		}
		f.body = b
	}
	if g.chance(0.002) { // past DATA_UPLOAD_MAX_MEMORY_SIZE
		f.header = append(f.header, [2]string{"Content-Type", "application/json"})
		f.body = `{"title":"` + strings.Repeat("x", 3<<20) + `"}`
	}
	return f
}

func (g *generator) target() target {
	total := 0
	for _, t := range targets {
		total += t.weight
	}
	n := g.rnd.IntN(total)
	for _, t := range targets {
		if n -= t.weight; n < 0 {
			return t
		}
	}
	return targets[0]
}

// method draws the method: mostly GET, the route's own, any other
// (a 405), and extension methods; only a writing generator changes books.
func (g *generator) method(t target) string {
	switch r := g.rnd.Float64(); {
	case r < 0.45:
		return "GET"
	case r < 0.52:
		return "HEAD"
	case r < 0.60:
		return "OPTIONS"
	case r < 0.85 && len(t.methods) > 0 && (g.writes || !t.mutates):
		return pick(g, t.methods...)
	case r < 0.93 && !t.mutates:
		return pick(g, "POST", "PUT", "PATCH", "DELETE")
	case r < 0.97:
		return pick(g, "PROPFIND", "TRACE", "FOO", "MKCOL")
	}
	return "GET"
}

// credentials adds none, good, bad or garbled credentials, sometimes two
// schemes at once.
func (g *generator) credentials(f *fuzzRequest) {
	auth := func(v string) { f.header = append(f.header, [2]string{"Authorization", v}) }
	switch r := g.rnd.IntN(21); r {
	case 0, 1, 2, 3, 4:
		// anonymous
	case 5:
		auth("Token {token:" + pick(g, "alice", "admin") + "}")
	case 6:
		auth(pick(g, "Token 0000000000000000000000000000000000000000", "Token", "Token a b", "token {token:alice}", "Token \u00e9", "Token {token:alice}x"))
	case 7:
		auth("Basic {basic:" + pick(g, "alice", "admin", "bob") + "}")
	case 8:
		auth(pick(g, "Basic "+b64("alice:wrong"), "Basic "+b64("nobody:x"), "Basic !!!", "Basic", "Basic "+b64("alice"), "Basic a b",
			"basic {basic:alice}", "Basic "+b64("alice:alice-pass:x"), "Basic "+b64(":")))
	case 9:
		auth(pick(g, "Bearer abc", "Digest x", "", "Token", "Negotiate", "Bearer a b", "Bearer", "bearer x.y.z", "Bearer "+fakeJWT,
			"Api-Key abcdefgh.abcdefghabcdefghabcdefghabcdefgh", "api-key abcdefgh.x", "XApi-Key abcdefgh.x", "Api-Key", "Api-Key a Api-Key b"))
	case 10, 11:
		f.jar = pick(g, "alice", "admin")
		if g.chance(0.5) {
			f.header = append(f.header, [2]string{"X-CSRFToken", pick(g, "{csrf}", "{csrf}", "wrong-token-0123456789012345678901234567890")})
		}
	case 12:
		f.header = append(f.header, [2]string{"Cookie", "sessionid=" + pick(g, "abc", "0123456789abcdefghijklmnopqrstuv", "")})
	case 13:
		f.jar = pick(g, "alice", "admin")
		auth(pick(g, "Token {token:admin}", "Basic {basic:alice}", "Token 0000000000000000000000000000000000000000"))
	case 14, 15:
		f.header = append(f.header, [2]string{"X-Username", pick(g, "alice", "admin", "bob", "nobody", "")})
	case 17:
		auth(pick(g, "Token {token:alice}", "Basic {basic:alice}", "Token 0000000000000000000000000000000000000000", "Bearer x"))
		auth(pick(g, "Token {token:admin}", "Basic {basic:admin}", "Token", "Basic "+b64("admin:wrong"), ""))
	case 16:
		f.jar = "anon" // cookies the answers set, CSRF among them
		if g.chance(0.5) {
			f.header = append(f.header, [2]string{"X-CSRFToken", "{csrf}"})
		}
	default:
		auth("Token {token:alice}")
		if g.chance(0.3) {
			f.header = append(f.header, [2]string{"X-Username", "admin"})
		}
	}
}

// bookBody draws a book to create or change, valid or not, as JSON, a
// form, multipart or garbage.
func bookBody(g *generator) (string, string) {
	fields := map[string]string{}
	if g.chance(0.85) {
		fields["title"] = pick(g, "A title", "", " ", strings.Repeat("t", 200), strings.Repeat("t", 201), "\u00e9t\u00e9", "<b>x</b>")
	}
	if g.chance(0.85) {
		fields["author"] = pick(g, "Someone", "", "Author 1")
	}
	if g.chance(0.85) {
		fields["rating"] = pick(g, "1", "3", "5", "0", "6", "-1", "x", "2.5", "3.0", " 4", "")
	}
	if g.chance(0.1) {
		fields["created"] = "2020-01-01T00:00:00Z"
	}
	if g.chance(0.1) {
		fields["owner"] = "bob"
	}
	if g.chance(0.05) {
		fields["id"] = "777"
	}
	return g.encode(fields)
}

// fakeJWT is a JWT signed with another key: invalid on both sides.
const fakeJWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0b2tlbl90eXBlIjoiYWNjZXNzIiwiZXhwIjo0MTAyNDQ0ODAwLCJqdGkiOiJ4IiwidXNlcl9pZCI6MX0.c2lnbmF0dXJl"

// jwtBody draws the body of a simplejwt view that reads a token in the
// field name: a bad token, none, an empty one, a number, a list.
func jwtBody(name string) func(g *generator) (string, string) {
	return func(g *generator) (string, string) {
		fields := map[string]string{}
		if g.chance(0.85) {
			fields[name] = pick(g, "abc", "", "x.y.z", fakeJWT, "5", " ")
		}
		return g.encode(fields)
	}
}

// credentialsBody draws a token obtain request's body.
func credentialsBody(g *generator) (string, string) {
	fields := map[string]string{}
	if g.chance(0.85) {
		fields["username"] = pick(g, "alice", "admin", "bob", "nobody", "", "ALICE", " alice")
	}
	if g.chance(0.85) {
		fields["password"] = pick(g, "alice-pass", "admin-pass", "bob-pass", "wrong", "")
	}
	if fields["username"] != "" && fields["password"] == "" && g.chance(0.5) {
		fields["password"] = fields["username"] + "-pass"
	}
	return g.encode(fields)
}

// loginBody draws a login form, with or without its CSRF token.
func loginBody(g *generator) (string, string) {
	form := url.Values{}
	if g.chance(0.7) {
		form.Set("csrfmiddlewaretoken", "{csrf}")
	}
	form.Set("username", pick(g, "alice", "admin", "nobody"))
	form.Set("password", pick(g, "alice-pass", "admin-pass", "wrong"))
	if g.chance(0.3) {
		form.Set("next", pick(g, "/books/", "http://evil.example/", "", "//evil.example/"))
	}
	return "application/x-www-form-urlencoded", strings.NewReplacer("%7Bcsrf%7D", "{csrf}").Replace(form.Encode())
}

// encode writes fields in a content type drawn at random; a string that
// parses as a number goes into JSON as one now and then.
func (g *generator) encode(fields map[string]string) (string, string) {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	switch r := g.rnd.IntN(20); {
	case r < 9:
		parts := make([]string, len(keys))
		for i, k := range keys {
			v := quote(fields[k])
			if k == "rating" && fields[k] != "" && g.chance(0.6) && !strings.ContainsAny(fields[k], "x ") {
				v = fields[k]
			}
			parts[i] = quote(k) + ":" + v
		}
		ct := pick(g, "application/json", "application/json", "application/json; charset=utf-8", "application/json; charset=utf-16",
			"application/json; charset=latin-1", "application/json; charset=nope", "APPLICATION/JSON")
		return ct, "{" + strings.Join(parts, ",") + "}"
	case r < 13:
		form := url.Values{}
		for _, k := range keys {
			form.Set(k, fields[k])
		}
		return pick(g, "application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8"), form.Encode()
	case r < 15:
		const boundary = "fuzzboundary"
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "--%s\r\nContent-Disposition: form-data; name=%q\r\n\r\n%s\r\n", boundary, k, fields[k])
		}
		b.WriteString("--" + boundary + "--\r\n")
		ct := pick(g, "multipart/form-data; boundary="+boundary, "multipart/form-data; boundary=other", "multipart/form-data")
		return ct, b.String()
	default:
		return pick(g, "application/json", "application/json", "text/plain", "", "application/xml", "application/x-www-form-urlencoded"),
			pick(g, `{"title":`, "not json", "", "[]", "null", `"text"`, "1", `{"rating":NaN}`, "{}", `{"title":"a","title":"b"}`, "\xff\xfe{}", "a=%zz&b")
	}
}
