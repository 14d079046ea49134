package sessions_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

type fixture struct {
	db    *sqlx.DB
	users *auth.Users
	m     *sessions.Manager
	alice *auth.User
	// c sends requests with the cookies each test gives, none kept.
	c *apitest.Client
}

func newFixture(t *testing.T, configure ...func(*sessions.Manager)) *fixture {
	t.Helper()
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, append(append([]migrations.Migration{}, auth.Migrations...), sessions.Migrations...)...); err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, users: &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}}
	f.m = &sessions.Manager{DB: db, Users: f.users, SecretKey: "test-secret-key"}
	for _, c := range configure {
		c(f.m)
	}
	if f.alice, err = f.users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	if err := f.users.Create(ctx, &auth.User{Username: "bob"}, "bob-pass"); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api-auth/", f.m.Pages())
	mux.HandleFunc("/me/", func(w http.ResponseWriter, r *http.Request) {
		u, err := f.m.SessionUser(r)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		if u == nil {
			io.WriteString(w, "anonymous")
			return
		}
		io.WriteString(w, u.GetUsername())
	})
	// /ignore/ never reads the session; /form/ hands out a CSRF token, as
	// the browsable pages do, after its own Vary.
	mux.HandleFunc("/ignore/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	mux.HandleFunc("/form/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Vary", "Accept")
		io.WriteString(w, f.m.Protection().Token(w, r))
	})
	f.c = apitest.New(t, f.m.Middleware(mux))
	f.c.Jar = nil
	return f
}

type page struct {
	status  int
	header  http.Header
	body    string
	cookies map[string]*http.Cookie
}

func (f *fixture) send(t *testing.T, method, path, form string, cookies ...*http.Cookie) page {
	t.Helper()
	return f.sendWith(t, method, path, form, "", cookies...)
}

// sendWith is send with one more header line ("Name: value"), if any.
func (f *fixture) sendWith(t *testing.T, method, path, form, line string, cookies ...*http.Cookie) page {
	t.Helper()
	var header, pairs []string
	if form != "" {
		header = append(header, "Content-Type: application/x-www-form-urlencoded")
	}
	if line != "" {
		header = append(header, line)
	}
	for _, c := range cookies {
		if c != nil {
			pairs = append(pairs, c.Name+"="+c.Value)
		}
	}
	if pairs != nil {
		header = append(header, "Cookie: "+strings.Join(pairs, "; "))
	}
	r := f.c.Do(method, path, form, header...)
	p := page{status: r.Status, header: r.Header, body: r.Body, cookies: map[string]*http.Cookie{}}
	for _, c := range r.Cookies() {
		p.cookies[c.Name] = c
	}
	return p
}

var formToken = regexp.MustCompile(`name="csrfmiddlewaretoken" value="([a-zA-Z0-9]{64})"`)

// loginPage loads the login form: its token and its csrftoken cookie.
func (f *fixture) loginPage(t *testing.T, path string) (string, *http.Cookie) {
	t.Helper()
	p := f.send(t, "GET", path, "")
	m := formToken.FindStringSubmatch(p.body)
	if p.status != 200 || m == nil || p.cookies["csrftoken"] == nil {
		t.Fatalf("login page: %d, cookies %v\n%s", p.status, p.cookies, p.body)
	}
	return m[1], p.cookies["csrftoken"]
}

// login logs alice in through the pages and returns the new cookies.
func (f *fixture) login(t *testing.T) (session, csrfCookie *http.Cookie) {
	t.Helper()
	tok, c := f.loginPage(t, "/api-auth/login/")
	p := f.send(t, "POST", "/api-auth/login/", url.Values{"username": {"alice"}, "password": {"alice-pass"}, "csrfmiddlewaretoken": {tok}}.Encode(), c)
	if p.status != 302 || p.cookies["sessionid"] == nil || p.cookies["csrftoken"] == nil {
		t.Fatalf("login: %d %v", p.status, p.cookies)
	}
	return p.cookies["sessionid"], p.cookies["csrftoken"]
}

func (f *fixture) me(t *testing.T, cookies ...*http.Cookie) string {
	t.Helper()
	return f.send(t, "GET", "/me/", "", cookies...).body
}

func TestMigrationIsDjangos(t *testing.T) {
	f := newFixture(t)
	for name, want := range map[string]string{
		"django_session":                      `CREATE TABLE "django_session" ("session_key" varchar(40) NOT NULL PRIMARY KEY, "session_data" text NOT NULL, "expire_date" datetime NOT NULL)`,
		"django_session_expire_date_a5c62663": `CREATE INDEX "django_session_expire_date_a5c62663" ON "django_session" ("expire_date")`,
	} {
		var got string
		if err := f.db.Get(&got, `SELECT "sql" FROM "sqlite_master" WHERE "name" = ?`, name); err != nil || got != want {
			t.Errorf("%s:\n%s\nwant (Django's):\n%s (%v)", name, got, want, err)
		}
	}
	var n int
	if err := f.db.Get(&n, `SELECT count(*) FROM "django_migrations" WHERE "app" = 'sessions' AND "name" = '0001_initial'`); err != nil || n != 1 {
		t.Errorf("django_migrations records sessions.0001_initial %d times (%v)", n, err)
	}
}

func TestLoginPage(t *testing.T) {
	f := newFixture(t)
	p := f.send(t, "GET", "/api-auth/login/?next=/books/", "")
	if p.status != 200 || !strings.HasPrefix(p.header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET: %d %s", p.status, p.header.Get("Content-Type"))
	}
	if !strings.Contains(p.body, `name="next" value="/books/"`) || strings.Contains(p.body, "action=") {
		t.Errorf("the form does not carry next, or names its target:\n%s", p.body)
	}
	// The form posts back to the page itself, whatever its path.
	rec := httptest.NewRecorder()
	f.m.Pages().ServeHTTP(rec, httptest.NewRequest("GET", "//evil.example/api-auth/login/", nil))
	if rec.Code != 200 || strings.Contains(rec.Body.String(), "evil") {
		t.Errorf("page at //evil.example/: %d\n%s", rec.Code, rec.Body.String())
	}
	if p.header.Get("Cache-Control") == "" || p.cookies["csrftoken"] == nil {
		t.Errorf("headers %v", p.header)
	}
	if h := f.send(t, "HEAD", "/api-auth/login/", ""); h.status != 200 || h.body != "" {
		t.Errorf("HEAD: %d %q", h.status, h.body)
	}
	if other := f.send(t, "GET", "/api-auth/other/", ""); other.status != 404 {
		t.Errorf("other page: %d", other.status)
	}
}

// The reference's answers: a login POST without CSRF is 403; a wrong
// password re-shows the form with 200; success redirects (302) to
// LOGIN_REDIRECT_URL, rotates csrftoken and sets an HttpOnly sessionid.
func TestLogin(t *testing.T) {
	f := newFixture(t)
	tok, csrfCookie := f.loginPage(t, "/api-auth/login/")
	form := func(user, pass, token string) string {
		return url.Values{"username": {user}, "password": {pass}, "csrfmiddlewaretoken": {token}}.Encode()
	}
	// Django's page, without the reason (DEBUG=False): only a missing
	// cookie is explained (csrf_failure_test.go holds the whole page).
	const noCookie = "this site requires a CSRF cookie when submitting forms"
	if p := f.send(t, "POST", "/api-auth/login/", form("alice", "alice-pass", "")); p.status != 403 ||
		!strings.Contains(p.body, "CSRF verification failed. Request aborted.") || !strings.Contains(p.body, noCookie) {
		t.Errorf("without cookie or token: %d\n%s", p.status, p.body)
	}
	if p := f.send(t, "POST", "/api-auth/login/", form("alice", "alice-pass", ""), csrfCookie); p.status != 403 ||
		!strings.Contains(p.body, "CSRF verification failed. Request aborted.") || strings.Contains(p.body, noCookie) {
		t.Errorf("without token: %d\n%s", p.status, p.body)
	}
	cases := []struct{ name, user, pass, want string }{
		{"wrong password", "alice", "wrong-pass", "Please enter a correct username and password. Note that both fields may be case-sensitive."},
		{"unknown user", "nobody", "nobody-pass", "Please enter a correct username and password. Note that both fields may be case-sensitive."},
		{"inactive user", "bob", "bob-pass", "Please enter a correct username and password. Note that both fields may be case-sensitive."},
		{"username in another case", "Alice", "alice-pass", "Please enter a correct username and password. Note that both fields may be case-sensitive."},
		{"password with a trailing space", "alice", "alice-pass ", "Please enter a correct username and password. Note that both fields may be case-sensitive."},
		{"empty fields", "", "", "This field is required."},
	}
	for _, c := range cases {
		p := f.send(t, "POST", "/api-auth/login/", form(c.user, c.pass, tok), csrfCookie)
		if p.status != 200 || !strings.Contains(p.body, c.want) || p.cookies["sessionid"] != nil {
			t.Errorf("%s: %d %v\n%s", c.name, p.status, p.cookies, p.body)
		}
		if c.user != "" && !strings.Contains(p.body, `value="`+c.user+`"`) {
			t.Errorf("%s: the username is not kept in the form", c.name)
		}
		if strings.Contains(p.body, c.pass) && c.pass != "" {
			t.Errorf("%s: the password is echoed", c.name)
		}
	}
	before := time.Now().Add(-time.Second)
	p := f.send(t, "POST", "/api-auth/login/", form(" alice ", "alice-pass", tok), csrfCookie)
	if p.status != 302 || p.header.Get("Location") != "/accounts/profile/" {
		t.Fatalf("login: %d Location %q", p.status, p.header.Get("Location"))
	}
	sid, rotated := p.cookies["sessionid"], p.cookies["csrftoken"]
	if sid == nil || rotated == nil {
		t.Fatalf("cookies %v", p.cookies)
	}
	if !regexp.MustCompile(`^[a-z0-9]{32}$`).MatchString(sid.Value) {
		t.Errorf("session key %q", sid.Value)
	}
	if !sid.HttpOnly || sid.SameSite != http.SameSiteLaxMode || sid.Secure || sid.Path != "/" || sid.MaxAge != 1209600 {
		t.Errorf("sessionid attributes %+v", sid)
	}
	if rotated.Value == csrfCookie.Value {
		t.Error("login did not rotate csrftoken")
	}
	var expire time.Time
	if err := f.db.Get(&expire, `SELECT "expire_date" FROM "django_session" WHERE "session_key" = ?`, sid.Value); err != nil {
		t.Fatal(err)
	}
	if d := time.Until(expire); d < 14*24*time.Hour-time.Minute || d > 14*24*time.Hour {
		t.Errorf("session expires in %v", d)
	}
	u, err := f.users.Get(context.Background(), f.alice.ID)
	if err != nil || u.LastLogin == nil || u.LastLogin.Before(before) {
		t.Errorf("last_login not updated: %+v %v", u, err)
	}
	if got := f.me(t, sid); got != "alice" {
		t.Errorf("session user %q", got)
	}

	// Logging in again replaces the session: the old key no longer works.
	tok2, c2 := f.loginPage(t, "/api-auth/login/")
	p = f.send(t, "POST", "/api-auth/login/", form("alice", "alice-pass", tok2), c2, sid)
	if p.status != 302 || p.cookies["sessionid"] == nil || p.cookies["sessionid"].Value == sid.Value {
		t.Fatalf("second login: %d %v", p.status, p.cookies)
	}
	if got := f.me(t, sid); got != "anonymous" {
		t.Errorf("old session still logged in as %q", got)
	}
	if got := f.me(t, p.cookies["sessionid"]); got != "alice" {
		t.Errorf("new session: %q", got)
	}
}

// TestLoginBodyOverTheCapIs413: a login or logout form over 1 MiB is
// refused as too large, not as a CSRF failure; one just under is read.
func TestLoginBodyOverTheCapIs413(t *testing.T) {
	f := newFixture(t)
	tok, csrfCookie := f.loginPage(t, "/api-auth/login/")
	form := url.Values{"username": {"alice"}, "password": {"alice-pass"}, "csrfmiddlewaretoken": {tok}}.Encode()
	pad := "&pad=" + strings.Repeat("a", 1<<20)
	for _, path := range []string{"/api-auth/login/", "/api-auth/logout/"} {
		if p := f.send(t, "POST", path, form+pad, csrfCookie); p.status != http.StatusRequestEntityTooLarge || !strings.Contains(p.body, "Request body is too large.") {
			t.Errorf("%s over 1 MiB: %d %.200s", path, p.status, p.body)
		}
	}
	if p := f.send(t, "POST", "/api-auth/login/", form+pad[:1<<19], csrfCookie); p.status != http.StatusFound {
		t.Errorf("login under 1 MiB: %d %.200s", p.status, p.body)
	}
}

func TestLoginRedirects(t *testing.T) {
	f := newFixture(t, func(m *sessions.Manager) { m.LoginRedirect = "/home/" })
	host := apitest.Host
	cases := []struct{ query, field, want string }{
		{"", "", "/home/"},
		{"", "/books/", "/books/"},
		{"?next=/pages/off/", "", "/pages/off/"},
		// A "next" field, even empty, wins over the query's, as Django's
		// request.POST.get("next", request.GET.get("next")).
		{"?next=/pages/off/", "-", "/home/"},
		{"?next=/pages/off/", "http://evil.example/", "/home/"},
		{"?next=/pages/off/", "/books/", "/books/"},
		{"", "//evil.example/", "/home/"},
		{"", "http://evil.example/", "/home/"},
		{"", `/\evil.example`, "/home/"},
		{"", "javascript:alert(1)", "/home/"},
		{"", "http://" + host + "/books/", "http://" + host + "/books/"},
		{"", "https://" + host + "/x", "https://" + host + "/x"},
		{"", "ftp://" + host + "/x", "/home/"},
	}
	for _, c := range cases {
		tok, ck := f.loginPage(t, "/api-auth/login/"+c.query)
		form := url.Values{"username": {"alice"}, "password": {"alice-pass"}, "csrfmiddlewaretoken": {tok}}
		switch {
		case c.field == "-": // an empty field
			form.Set("next", "")
		case c.field != "":
			form.Set("next", c.field)
		}
		p := f.send(t, "POST", "/api-auth/login/"+c.query, form.Encode(), ck)
		if p.status != 302 || p.header.Get("Location") != c.want {
			t.Errorf("next %q%s: %d %q, want %q", c.field, c.query, p.status, p.header.Get("Location"), c.want)
		}
	}
}

func TestSafeRedirect(t *testing.T) {
	cases := []struct {
		target string
		secure bool
		want   bool
	}{
		{"/books/", false, true},
		{"books/", false, true},
		{"  /books/ ", false, true},
		{"", false, false},
		{"//evil.example", false, false},
		{"///evil.example", false, false},
		{`\\evil.example`, false, false},
		{`/\evil.example`, false, false},
		{"http://example.com/x", false, true},
		{"http://example.com/x", true, false},
		{"https://example.com/x", true, true},
		{"//example.com/x", false, true},
		{"http://user@example.com/x", false, false},
		{"http:example.com", false, false},
		{"\x01/x", false, false},
		{"http://example.com.evil/", false, false},
		{"mailto:a@example.com", false, false},
	}
	for _, c := range cases {
		if got := sessions.SafeRedirect(c.target, "example.com", c.secure); got != c.want {
			t.Errorf("SafeRedirect(%q, secure=%v) = %v", c.target, c.secure, got)
		}
	}
}

func TestLogout(t *testing.T) {
	f := newFixture(t, func(m *sessions.Manager) { m.LogoutRedirect = "/bye/" })
	sid, ck := f.login(t)
	if p := f.send(t, "POST", "/api-auth/logout/", "", sid, ck); p.status != 403 {
		t.Errorf("without token: %d", p.status)
	}
	if got := f.me(t, sid); got != "alice" {
		t.Fatalf("a refused logout logged out: %q", got)
	}
	p := f.send(t, "POST", "/api-auth/logout/", "csrfmiddlewaretoken="+ck.Value+"&next=/books/", sid, ck)
	if p.status != 302 || p.header.Get("Location") != "/books/" {
		t.Fatalf("logout: %d %q", p.status, p.header.Get("Location"))
	}
	if c := p.cookies["sessionid"]; c == nil || c.Value != "" || c.MaxAge >= 0 {
		t.Errorf("sessionid not cleared: %+v", c)
	}
	if p.cookies["csrftoken"] != nil {
		t.Error("logout set csrftoken; Django leaves it")
	}
	if got := f.me(t, sid); got != "anonymous" {
		t.Errorf("still logged in as %q", got)
	}
	var n int
	if err := f.db.Get(&n, `SELECT count(*) FROM "django_session"`); err != nil || n != 0 {
		t.Errorf("%d sessions left (%v)", n, err)
	}
	p = f.send(t, "POST", "/api-auth/logout/", "csrfmiddlewaretoken="+ck.Value, ck)
	if p.status != 302 || p.header.Get("Location") != "/bye/" || p.cookies["sessionid"] != nil {
		t.Errorf("anonymous logout: %d %q %v", p.status, p.header.Get("Location"), p.cookies)
	}
}

func TestSessionEnds(t *testing.T) {
	f := newFixture(t, func(m *sessions.Manager) { m.Secure = true; m.CookieName = "sid" })
	ctx := context.Background()
	tok, ck := f.loginPage(t, "/api-auth/login/")
	p := f.send(t, "POST", "/api-auth/login/", url.Values{"username": {"alice"}, "password": {"alice-pass"}, "csrfmiddlewaretoken": {tok}}.Encode(), ck)
	sid := p.cookies["sid"]
	if sid == nil || !sid.Secure {
		t.Fatalf("cookie %+v", sid)
	}
	if got := f.me(t, sid); got != "alice" {
		t.Fatalf("session user %q", got)
	}
	if got := f.me(t, &http.Cookie{Name: "sid", Value: "unknown"}); got != "anonymous" {
		t.Errorf("unknown key: %q", got)
	}
	if got := f.me(t, &http.Cookie{Name: "sid", Value: strings.Repeat("a", 41)}); got != "anonymous" {
		t.Errorf("overlong key: %q", got)
	}

	// Inactive: anonymous while inactive, back when active again.
	f.db.MustExec(`UPDATE "auth_user" SET "is_active" = 0 WHERE "id" = ?`, f.alice.ID)
	if got := f.me(t, sid); got != "anonymous" {
		t.Errorf("inactive user: %q", got)
	}
	f.db.MustExec(`UPDATE "auth_user" SET "is_active" = 1 WHERE "id" = ?`, f.alice.ID)
	if got := f.me(t, sid); got != "alice" {
		t.Errorf("reactivated user: %q", got)
	}

	// Expired: anonymous, and ClearExpired removes it.
	f.db.MustExec(`UPDATE "django_session" SET "expire_date" = ?`, store.FormatTime(time.Now().Add(-time.Second)))
	if got := f.me(t, sid); got != "anonymous" {
		t.Errorf("expired session: %q", got)
	}
	if n, err := f.m.ClearExpired(ctx); err != nil || n != 1 {
		t.Errorf("ClearExpired = %d, %v", n, err)
	}

	// A password change ends the sessions of the old password.
	tok, ck = f.loginPage(t, "/api-auth/login/")
	p = f.send(t, "POST", "/api-auth/login/", url.Values{"username": {"alice"}, "password": {"alice-pass"}, "csrfmiddlewaretoken": {tok}}.Encode(), ck)
	sid = p.cookies["sid"]
	if got := f.me(t, sid); got != "alice" {
		t.Fatalf("new session: %q", got)
	}
	if err := f.users.SetPassword(ctx, f.alice, "new-pass"); err != nil {
		t.Fatal(err)
	}
	if got := f.me(t, sid); got != "anonymous" {
		t.Errorf("after a password change: %q", got)
	}
	var n int
	if err := f.db.Get(&n, `SELECT count(*) FROM "django_session"`); err != nil || n != 0 {
		t.Errorf("the stale session was kept (%d, %v)", n, err)
	}
}

// The headers Django's login and logout views answer with (the
// reference's): never cached and varying on Cookie once the view runs,
// the redirect typed as HTML; a CSRF refusal comes before the view, as
// Django's middleware refuses it, so it is neither.
func TestPageHeadersAsDjangos(t *testing.T) {
	f := newFixture(t)
	const never = "max-age=0, no-cache, no-store, must-revalidate, private"
	check := func(name string, p page, cache, vary, ct string) {
		t.Helper()
		if p.header.Get("Cache-Control") != cache || strings.Join(p.header.Values("Vary"), ",") != vary || p.header.Get("Content-Type") != ct {
			t.Errorf("%s: Cache-Control %q, Vary %q, Content-Type %q", name, p.header.Get("Cache-Control"), p.header.Values("Vary"), p.header.Get("Content-Type"))
		}
	}
	check("form", f.send(t, "GET", "/api-auth/login/", ""), never, "Cookie", "text/html; charset=utf-8")
	check("refused", f.send(t, "POST", "/api-auth/login/", "username=alice"), "", "", "text/html; charset=utf-8")
	// Django 3.2's refusal page has no charset.
	old := newFixture(t, func(m *sessions.Manager) { m.Compatibility = compat.DRF314 })
	check("refused by Django 3.2", old.send(t, "POST", "/api-auth/login/", "username=alice"), "", "", "text/html")
	tok, c := f.loginPage(t, "/api-auth/login/")
	p := f.send(t, "POST", "/api-auth/login/", url.Values{"username": {"alice"}, "password": {"alice-pass"}, "csrfmiddlewaretoken": {tok}}.Encode(), c)
	if p.status != 302 {
		t.Fatalf("login: %d", p.status)
	}
	check("login redirect", p, never, "Cookie", "text/html; charset=utf-8")
}
