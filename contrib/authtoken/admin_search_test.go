package authtoken_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/internal/testservers"
)

// searchUsers are the users with a token in the search tests, besides
// alice and bob; none is staff.
var searchUsers = []string{"alicia", "a_b", "ab", "zoë", "o'neil", `back\slash`, "100%"}

// searchAdmin is the token admin on dsn at level, with its users' tokens,
// configured by configure; it returns the superuser's cookie.
func searchAdmin(t *testing.T, dsn string, level compat.Level, configure func(*authtoken.Admin)) (*adminFixture, string) {
	t.Helper()
	f := newFixture(t, dsn)
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, f.db, sessions.Migrations...); err != nil {
		t.Fatal(err)
	}
	for _, u := range []*auth.User{f.alice, f.bob} {
		if _, _, err := f.tokens.GetOrCreate(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range searchUsers {
		u, err := f.users.CreateUser(ctx, name, strings.ReplaceAll(name, "'", "")+"@example.org", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.tokens.GetOrCreate(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	a := &adminFixture{fixture: f, m: &sessions.Manager{DB: f.db, Users: f.users, SecretKey: "test-secret-key", Compatibility: level}}
	h := &authtoken.Admin{Tokens: f.tokens, Users: f.users, Sessions: a.m}
	if configure != nil {
		configure(h)
	}
	mux := http.NewServeMux()
	mux.Handle("/admin/tokens/", h)
	a.c = apitest.New(t, mux)
	a.c.Jar = nil
	cookie, _ := a.cookieFor(t, f.admin)
	return a, cookie
}

// listedUser matches the user of a token in the list.
var listedUser = regexp.MustCompile(`<td>([^<]*) \(id \d+\)</td>`)

// listed returns the users of the tokens the page lists, in its order.
func listed(body string) []string {
	var out []string
	for _, m := range listedUser.FindAllStringSubmatch(body, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// searches are ?q= values and the tokens Django 5.2's admin finds with
// DRF 3.18's TokenAdmin (search_fields and ordering user__username, then
// -pk), on SQLite, among the tokens of alice, bob and searchUsers.
var searches = []struct {
	q    string
	want []string
}{
	{"", []string{"100%", "a_b", "ab", "alice", "alicia", `back\slash`, "bob", "o'neil", "zoë"}},
	{"   ", []string{"100%", "a_b", "ab", "alice", "alicia", `back\slash`, "bob", "o'neil", "zoë"}},
	{"ali", []string{"alice", "alicia"}},
	{"ALI", []string{"alice", "alicia"}},
	{"ali cia", []string{"alicia"}},
	{"cia ali", []string{"alicia"}},
	{`"ali"`, []string{"alice", "alicia"}},
	{`'ali'`, []string{"alice", "alicia"}},
	{`"ali`, nil},
	{"a_", []string{"a_b"}},
	{"_", []string{"a_b"}},
	{"%", []string{"100%"}},
	{"0%", []string{"100%"}},
	{"ZOË", nil}, // SQLite's LIKE ignores the case of ASCII letters only
	{"zoë", []string{"zoë"}},
	{"o'neil", []string{"o'neil"}},
	{`"o'neil"`, []string{"o'neil"}},
	{`'o\'neil'`, []string{"o'neil"}},
	{`"`, []string{"100%", "a_b", "ab", "alice", "alicia", `back\slash`, "bob", "o'neil", "zoë"}},
	{`\`, []string{`back\slash`}},
	{`back\slash`, []string{`back\slash`}},
	{`"back\\slash"`, []string{`back\slash`}},
	{"li\u00a0ce", []string{"alice"}},
	{"li\u2003ce", []string{"alice"}},
	{"l\u3000ali", []string{"alice", "alicia"}},
	{"example.com", nil},
}

// DRF 3.18's TokenAdmin searches tokens by their user's USERNAME_FIELD
// (#8934, #9836) as Django's admin searches: every term of ?q=, ignoring
// case, quoted terms unquoted, LIKE's wildcards literal; and lists them by
// it.
func TestAdminSearch(t *testing.T) {
	a, cookie := searchAdmin(t, ":memory:", compat.Current, nil)
	for _, s := range searches {
		p := a.do(t, "GET", "/admin/tokens/?q="+url.QueryEscape(s.q), cookie, nil)
		if got := listed(p.body); p.status != 200 || !slices.Equal(got, s.want) {
			t.Errorf("?q=%s: %d %q, want %q", s.q, p.status, got, s.want)
		}
	}
	p := a.do(t, "GET", "/admin/tokens/?q=ali", cookie, nil)
	for _, want := range []string{
		`<input type="text" size="40" name="q" value="ali" id="searchbar" aria-describedby="searchbar_helptext">`,
		`<span id="searchbar_helptext">Username</span>`,
		`<p>2 results (<a href="?">9 total</a>).</p>`,
	} {
		if !strings.Contains(p.body, want) {
			t.Errorf("?q=ali lacks %s:\n%s", want, p.body)
		}
	}
	// Django's search form refuses a NUL, and the list is whole.
	p = a.do(t, "GET", "/admin/tokens/?q=ali%00", cookie, nil)
	if p.status != 200 || len(listed(p.body)) != 9 || !strings.Contains(p.body, `<p class="error">Null characters are not allowed.</p>`) {
		t.Errorf("?q=ali%%00: %d %q\n%s", p.status, listed(p.body), p.body)
	}
}

// The pages of a search keep its terms.
func TestAdminSearchPages(t *testing.T) {
	a, cookie := searchAdmin(t, ":memory:", compat.Current, nil)
	ctx := context.Background()
	for i := range adminPageSize + 1 {
		u, err := a.users.CreateUser(ctx, "many"+strings.Repeat("x", i%3)+"-"+string(rune('a'+i%26))+"-"+strings.Repeat("y", i/26), "", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.tokens.GetOrCreate(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	first := a.do(t, "GET", "/admin/tokens/?q=MANY", cookie, nil)
	if n := len(listed(first.body)); n != adminPageSize || !strings.Contains(first.body, `href="?page=2&amp;q=MANY"`) ||
		!strings.Contains(first.body, "101 results") {
		t.Errorf("first page of ?q=MANY: %d rows\n%s", n, first.body)
	}
	second := a.do(t, "GET", "/admin/tokens/?page=2&q=MANY", cookie, nil)
	if got := listed(second.body); len(got) != 1 || !strings.HasPrefix(got[0], "many") || !strings.Contains(second.body, `href="?page=1&amp;q=MANY"`) {
		t.Errorf("second page of ?q=MANY: %q\n%s", got, second.body)
	}
}

// A user model whose USERNAME_FIELD is the e-mail: the list names, orders
// and searches tokens by it.
func TestAdminUsernameField(t *testing.T) {
	a, cookie := searchAdmin(t, ":memory:", compat.Current, func(h *authtoken.Admin) { h.UsernameField = "email" })
	p := a.do(t, "GET", "/admin/tokens/?q=EXAMPLE.COM", cookie, nil)
	if got := listed(p.body); !slices.Equal(got, []string{"alice@example.com"}) {
		t.Errorf("?q=EXAMPLE.COM: %q", got)
	}
	p = a.do(t, "GET", "/admin/tokens/", cookie, nil)
	want := []string{"", "100%@example.org", "a_b@example.org", "ab@example.org", "alice@example.com", "alicia@example.org",
		`back\slash@example.org`, "oneil@example.org", "zoë@example.org"}
	if got := listed(p.body); !slices.Equal(got, want) {
		t.Errorf("by e-mail: %q, want %q", got, want)
	}

	bad, cookie := searchAdmin(t, ":memory:", compat.Current, func(h *authtoken.Admin) { h.UsernameField = "password" })
	if p := bad.do(t, "GET", "/admin/tokens/", cookie, nil); p.status != http.StatusInternalServerError || strings.Contains(p.body, "pbkdf2") {
		t.Errorf("UsernameField password: %d %s", p.status, p.body)
	}
}

// DRF 3.14's TokenAdmin has no search and lists the newest tokens first.
func TestAdminAt314(t *testing.T) {
	a, cookie := searchAdmin(t, ":memory:", compat.DRF314, nil)
	p := a.do(t, "GET", "/admin/tokens/?q=ali", cookie, nil)
	want := slices.Clone(searchUsers)
	slices.Reverse(want)
	want = append(want, "bob", "alice")
	if got := listed(p.body); p.status != 200 || !slices.Equal(got, want) || strings.Contains(p.body, "searchbar") || !strings.Contains(p.body, "<p>9 tokens.</p>") {
		t.Errorf("?q=ali at 3.14: %d %q, want %q\n%s", p.status, got, want, p.body)
	}
}

// On PostgreSQL the search ignores case as Django's UPPER(...) LIKE
// UPPER(...) does there: for every letter the database's LC_CTYPE knows
// (non-ASCII ones unless it is C).
func TestAdminSearchOnPostgres(t *testing.T) {
	a, cookie := searchAdmin(t, testservers.Postgres(t), compat.Current, nil)
	var unicodeUpper bool
	if err := a.db.Get(&unicodeUpper, `SELECT UPPER('zoë') = 'ZOË'`); err != nil {
		t.Fatal(err)
	}
	for _, s := range searches {
		want := s.want
		if s.q == "ZOË" && unicodeUpper {
			want = []string{"zoë"}
		}
		p := a.do(t, "GET", "/admin/tokens/?q="+url.QueryEscape(s.q), cookie, nil)
		got := listed(p.body)
		slices.Sort(got)
		want = slices.Sorted(slices.Values(want))
		if p.status != 200 || !slices.Equal(got, want) {
			t.Errorf("?q=%s: %d %q, want %q", s.q, p.status, got, want)
		}
	}
}
