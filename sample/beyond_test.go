package sample_test

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/hashedtoken"
	"github.com/go-drf/drf/framework/apitest"
)

// bookRow is what the tests read of a book.
type bookRow struct {
	ID     int    `json:"id"`
	Title  string `json:"title"`
	Rating int    `json:"rating"`
}

// page is a paginated answer of the /beyond/ routes.
type page struct {
	Count          *int      `json:"count"`
	CountEstimated *bool     `json:"count_estimated"`
	Next           *string   `json:"next"`
	Previous       *string   `json:"previous"`
	Results        []bookRow `json:"results"`
}

// path is a link's path and query, "" for none.
func path(link *string) string {
	if link == nil {
		return ""
	}
	return strings.TrimPrefix(*link, "http://"+apitest.Host)
}

func getPage(t *testing.T, c *apitest.Client, p string) page {
	t.Helper()
	resp := c.Get(p)
	if resp.Status != 200 {
		t.Fatalf("GET %s: %d %s", p, resp.Status, resp.Body)
	}
	var pg page
	resp.Decode(&pg)
	return pg
}

// TestBeyondKeyset: /beyond/pages/keyset/ walks the books by rating (with
// ties), title and id, forward and back, each once; a tampered cursor is
// 404 "Invalid cursor".
func TestBeyondKeyset(t *testing.T) {
	c := serve(t, newDB(t))
	var books []bookRow
	c.Get("/pages/off/").Decode(&books)
	slices.SortFunc(books, func(a, b bookRow) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.Title, b.Title), cmp.Compare(a.ID, b.ID))
	})
	var want []int
	for _, b := range books {
		want = append(want, b.ID)
	}
	if len(want) != 10 {
		t.Fatalf("%d books", len(want))
	}
	var forward []int
	var last page
	for p := "/beyond/pages/keyset/?page_size=3"; p != ""; p = path(last.Next) {
		last = getPage(t, c, p)
		for _, r := range last.Results {
			forward = append(forward, r.ID)
		}
	}
	if !slices.Equal(forward, want) {
		t.Errorf("forward %v, want %v", forward, want)
	}
	var backward []int
	for p := last; ; p = getPage(t, c, path(p.Previous)) {
		var ids []int
		for _, r := range p.Results {
			ids = append(ids, r.ID)
		}
		backward = append(ids, backward...)
		if p.Previous == nil {
			break
		}
	}
	if !slices.Equal(backward, want) {
		t.Errorf("backward %v, want %v", backward, want)
	}
	next := path(getPage(t, c, "/beyond/pages/keyset/").Next)
	prefix, cursor, _ := strings.Cut(next, "cursor=")
	flipped := []byte(cursor)
	flipped[len(flipped)/2] ^= 'A' ^ 'B'
	if resp := c.Get(prefix + "cursor=" + string(flipped)); resp.Status != 404 || resp.Body != `{"detail":"Invalid cursor"}` {
		t.Errorf("tampered cursor: %d %s", resp.Status, resp.Body)
	}
}

// TestBeyondCounts: the estimated count is flagged until the last page,
// where it is exact; the uncounted list has no count at all.
func TestBeyondCounts(t *testing.T) {
	c := serve(t, newDB(t))
	p := getPage(t, c, "/beyond/pages/estimated/")
	if p.Count == nil || *p.Count != 10 || p.CountEstimated == nil || !*p.CountEstimated || p.Next == nil {
		t.Errorf("estimated first page: %+v", p)
	}
	p = getPage(t, c, "/beyond/pages/estimated/?page=2")
	if p.Count == nil || *p.Count != 10 || p.CountEstimated == nil || *p.CountEstimated || p.Next != nil {
		t.Errorf("estimated last page: %+v", p)
	}
	if body := c.Get("/beyond/pages/no-count/?offset=5").Body; !strings.HasPrefix(body, `{"next":null,"previous":`) {
		t.Errorf("uncounted: %s", body)
	}
}

// TestBeyondAuth: device tokens by Basic login, used as Bearer, listed and
// logged out; the session route answers 401 with its challenge.
func TestBeyondAuth(t *testing.T) {
	c := serve(t, newDB(t))
	resp := c.Post("/beyond/devices/login/", `{"name":"laptop"}`, "Authorization: Basic YWxpY2U6YWxpY2UtcGFzcw==")
	var login struct {
		Token string `json:"token"`
	}
	resp.Decode(&login)
	if resp.Status != 200 || !strings.HasPrefix(login.Token, hashedtoken.KeyPrefix) || len(login.Token) != len(hashedtoken.KeyPrefix)+hashedtoken.KeyLength {
		t.Fatalf("login: %d %s", resp.Status, resp.Body)
	}
	bearer := "Authorization: Bearer " + login.Token
	if body := c.Get("/beyond/auth/bearer/", bearer).Body; body != `{"username":"alice"}` {
		t.Errorf("bearer: %s", body)
	}
	if body := c.Get("/beyond/devices/tokens/", bearer).Body; !strings.Contains(body, `"name":"laptop"`) || !strings.Contains(body, `"current":true`) {
		t.Errorf("tokens: %s", body)
	}
	if resp := c.Post("/beyond/devices/logout/", "", bearer); resp.Status != 204 {
		t.Errorf("logout: %d %s", resp.Status, resp.Body)
	}
	if resp := c.Get("/beyond/auth/bearer/", bearer); resp.Status != 401 || resp.Header.Get("WWW-Authenticate") != "Bearer" || resp.Body != `{"detail":"Invalid token."}` {
		t.Errorf("after logout: %d %q %s", resp.Status, resp.Header.Get("WWW-Authenticate"), resp.Body)
	}
	if resp := c.Get("/beyond/auth/session-401/"); resp.Status != 401 || resp.Header.Get("WWW-Authenticate") != `Session realm="api"` ||
		resp.Body != `{"detail":"Authentication credentials were not provided."}` {
		t.Errorf("session 401: %d %q %s", resp.Status, resp.Header.Get("WWW-Authenticate"), resp.Body)
	}
}

// TestBeyondResolve: a URL of one version resolves to its route and
// reverses into another.
func TestBeyondResolve(t *testing.T) {
	c := serve(t, newDB(t))
	q := func(u, to string) string { return "?" + url.Values{"url": {u}, "to": {to}}.Encode() }
	cases := []struct {
		path   string
		status int
		body   string
	}{
		{"/beyond/url/v1/resolve/" + q("/url/v2/books/3/", "v1"), 200,
			`{"name":"url-book-detail","params":{"pk":"3"},"version":"v2","in":"http://testserver/url/v1/books/3/"}`},
		{"/beyond/url/v2/resolve/" + q("http://testserver/url/v1/books/", ""), 200,
			`{"name":"url-book-list","params":{},"version":"v1","in":"http://testserver/url/v2/books/"}`},
		{"/beyond/url/v1/resolve/" + q("/url/v3/books/3/", "v1"), 404, `{"detail":"Invalid version in URL path."}`},
		{"/beyond/url/v1/resolve/" + q("/url/v1/books/3/", "v3"), 404, `{"detail":"Invalid version in URL path."}`},
		{"/beyond/url/v1/resolve/" + q("/nowhere/", "v1"), 404, `{"detail":"Not found."}`},
		{"/beyond/url/v1/resolve/", 400, `{"detail":"Give the URL to resolve as \"url\"."}`},
	}
	for _, tc := range cases {
		if resp := c.Get(tc.path); resp.Status != tc.status || resp.Body != tc.body {
			t.Errorf("%s: %d %s\nwant %d %s", tc.path, resp.Status, resp.Body, tc.status, tc.body)
		}
	}
}
