package authtoken_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/migrations"
)

type adminFixture struct {
	*fixture
	m *sessions.Manager
	// c sends the cookies each request gives, none kept.
	c *apitest.Client
}

func newAdmin(t *testing.T) *adminFixture {
	t.Helper()
	f := newFixture(t, ":memory:")
	if _, err := migrations.Migrate(context.Background(), f.db, sessions.Migrations...); err != nil {
		t.Fatal(err)
	}
	a := &adminFixture{fixture: f, m: &sessions.Manager{DB: f.db, Users: f.users, SecretKey: "test-secret-key"}}
	mux := http.NewServeMux()
	mux.Handle("/admin/tokens/", &authtoken.Admin{Tokens: f.tokens, Users: f.users, Sessions: a.m})
	a.c = apitest.New(t, mux)
	a.c.Jar = nil
	return a
}

// cookieFor logs u in and returns its session and CSRF cookies.
func (a *adminFixture) cookieFor(t *testing.T, u *auth.User) (cookie, secret string) {
	t.Helper()
	rec := httptest.NewRecorder()
	if err := a.m.Login(rec, httptest.NewRequest("POST", "/", nil), u); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, c := range rec.Result().Cookies() {
		parts = append(parts, c.Name+"="+c.Value)
		if c.Name == "csrftoken" {
			secret = c.Value
		}
	}
	return strings.Join(parts, "; "), secret
}

type page struct {
	status   int
	location string
	body     string
}

// do sends form (as a form) with the Cookie header cookie, "" for none.
func (a *adminFixture) do(t *testing.T, method, path, cookie string, form url.Values) page {
	t.Helper()
	header := []string{"Content-Type: application/x-www-form-urlencoded"}
	if cookie != "" {
		header = append(header, "Cookie: "+cookie)
	}
	r := a.c.Do(method, path, form.Encode(), header...)
	return page{r.Status, r.Header.Get("Location"), r.Body}
}

// adminPageSize is the tokens a page of the admin lists.
const adminPageSize = 100

func TestAdminAccess(t *testing.T) {
	a := newAdmin(t)
	if p := a.do(t, "GET", "/admin/tokens/?page=2", "", nil); p.status != 302 || p.location != "/api-auth/login/?next=%2Fadmin%2Ftokens%2F%3Fpage%3D2" {
		t.Errorf("anonymous: %d %q", p.status, p.location)
	}
	alice, _ := a.cookieFor(t, a.alice)
	if p := a.do(t, "GET", "/admin/tokens/", alice, nil); p.status != 403 || !strings.Contains(p.body, "alice") {
		t.Errorf("non-staff: %d %s", p.status, p.body)
	}
	if p := a.do(t, "POST", "/admin/tokens/", alice, url.Values{"action": {"create"}, "user_id": {"1"}}); p.status != 403 {
		t.Errorf("non-staff POST: %d", p.status)
	}
	// A staff user needs the authtoken permissions, as in Django's admin.
	ctx := context.Background()
	staffer := &auth.User{Username: "staffer", Active: true, Staff: true}
	if err := a.users.Create(ctx, staffer, "staffer-pass"); err != nil {
		t.Fatal(err)
	}
	staff, staffCSRF := a.cookieFor(t, staffer)
	post := func(form url.Values) page {
		form.Set("csrfmiddlewaretoken", staffCSRF)
		return a.do(t, "POST", "/admin/tokens/", staff, form)
	}
	if p := a.do(t, "GET", "/admin/tokens/", staff, nil); p.status != 403 || !strings.Contains(p.body, "staffer") {
		t.Errorf("staff without permissions: %d %s", p.status, p.body)
	}
	grant := func(perm string) {
		t.Helper()
		if err := a.users.GrantPermission(ctx, staffer, perm); err != nil {
			t.Fatal(err)
		}
	}
	grant("authtoken.view_token")
	if _, _, err := a.tokens.GetOrCreate(ctx, a.alice.ID); err != nil {
		t.Fatal(err)
	}
	p := a.do(t, "GET", "/admin/tokens/", staff, nil)
	if p.status != 200 || !strings.Contains(p.body, "alice") || strings.Contains(p.body, "Create token") ||
		strings.Contains(p.body, "Regenerate") || strings.Contains(p.body, `value="Delete"`) {
		t.Errorf("staff with view_token: %d %s", p.status, p.body)
	}
	if p := post(url.Values{"action": {"create"}, "user_id": {strconv.FormatInt(a.admin.ID, 10)}}); p.status != 403 {
		t.Errorf("create without add_token: %d", p.status)
	}
	if p := post(url.Values{"action": {"regenerate"}, "user_id": {strconv.FormatInt(a.alice.ID, 10)}}); p.status != 403 {
		t.Errorf("regenerate without change_token: %d", p.status)
	}
	grant("authtoken.add_token")
	if p := post(url.Values{"action": {"create"}, "user_id": {strconv.FormatInt(a.admin.ID, 10)}}); p.status != 303 {
		t.Errorf("create with add_token: %d %s", p.status, p.body)
	}
	if err := a.users.RevokePermission(ctx, staffer, "authtoken.view_token"); err != nil {
		t.Fatal(err)
	}
	grant("authtoken.change_token")
	if p := a.do(t, "GET", "/admin/tokens/", staff, nil); p.status != 200 || !strings.Contains(p.body, "Regenerate") || strings.Contains(p.body, `value="Delete"`) {
		t.Errorf("staff with change_token: %d %s", p.status, p.body)
	}
	if p := post(url.Values{"action": {"regenerate"}, "user_id": {strconv.FormatInt(a.alice.ID, 10)}}); p.status != 303 {
		t.Errorf("regenerate with change_token: %d %s", p.status, p.body)
	}
	tok, err := a.tokens.ForUser(ctx, a.alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p := post(url.Values{"action": {"delete"}, "key": {tok.Key}}); p.status != 403 {
		t.Errorf("delete without delete_token: %d", p.status)
	}
	grant("authtoken.delete_token")
	if p := post(url.Values{"action": {"delete"}, "key": {tok.Key}}); p.status != 303 {
		t.Errorf("delete with delete_token: %d %s", p.status, p.body)
	}
	// A user with the permissions who is not staff may not use the admin.
	for _, perm := range []string{"authtoken.view_token", "authtoken.change_token"} {
		if err := a.users.GrantPermission(ctx, a.alice, perm); err != nil {
			t.Fatal(err)
		}
	}
	if p := a.do(t, "GET", "/admin/tokens/", alice, nil); p.status != 403 {
		t.Errorf("non-staff with the permissions: %d", p.status)
	}
	admin, _ := a.cookieFor(t, a.admin)
	if p := a.do(t, "PUT", "/admin/tokens/", admin, nil); p.status != 405 {
		t.Errorf("PUT: %d", p.status)
	}
	// Links and forms stay on the page, whatever its path.
	h := &authtoken.Admin{Tokens: a.tokens, Users: a.users, Sessions: a.m}
	req := httptest.NewRequest("GET", "//evil.example/admin/", nil)
	req.Header.Set("Cookie", admin)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || strings.Contains(rec.Body.String(), "evil") {
		t.Errorf("page at //evil.example/: %d\n%s", rec.Code, rec.Body.String())
	}
	if n := a.count(t, ""); n != 1 {
		t.Errorf("%d tokens are left, want the admin's", n)
	}
}

func TestAdminManagesTokens(t *testing.T) {
	a := newAdmin(t)
	ctx := context.Background()
	cookie, secret := a.cookieFor(t, a.admin)
	form := func(kv ...string) url.Values {
		v := url.Values{"csrfmiddlewaretoken": {secret}}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	p := a.do(t, "GET", "/admin/tokens/", cookie, nil)
	if p.status != 200 || !strings.Contains(p.body, "0 tokens") || !strings.Contains(p.body, `name="csrfmiddlewaretoken"`) {
		t.Fatalf("empty list: %d\n%s", p.status, p.body)
	}

	// No CSRF token: refused, nothing made.
	if p := a.do(t, "POST", "/admin/tokens/", cookie, url.Values{"action": {"create"}, "user_id": {"1"}}); p.status != 403 ||
		!strings.Contains(p.body, "CSRF verification failed. Request aborted.") {
		t.Errorf("without CSRF: %d %s", p.status, p.body)
	}
	if n := a.count(t, ""); n != 0 {
		t.Fatalf("%d tokens after a refused POST", n)
	}

	if p := a.do(t, "POST", "/admin/tokens/", cookie, form("action", "create", "user_id", " 1 ")); p.status != 303 || p.location != "/admin/tokens/?done=created" {
		t.Fatalf("create: %d %q %s", p.status, p.location, p.body)
	}
	tok, err := a.tokens.ForUser(ctx, a.alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	p = a.do(t, "GET", "/admin/tokens/?done=created", cookie, nil)
	if !strings.Contains(p.body, tok.Key) || !strings.Contains(p.body, "alice (id 1)") || !strings.Contains(p.body, "The token was created.") {
		t.Errorf("list after create:\n%s", p.body)
	}
	for _, c := range []struct{ name, id, want string }{
		{"existing token", "1", "already has a token"},
		{"unknown user", "99", "User 99 does not exist."},
		{"not a number", "alice", "Enter the id of a user"},
	} {
		if p := a.do(t, "POST", "/admin/tokens/", cookie, form("action", "create", "user_id", c.id)); p.status != 400 || !strings.Contains(p.body, c.want) {
			t.Errorf("%s: %d %s", c.name, p.status, p.body)
		}
	}
	if p := a.do(t, "POST", "/admin/tokens/", cookie, form("action", "bogus", "user_id", "1")); p.status != 400 {
		t.Errorf("unknown action: %d", p.status)
	}

	if p := a.do(t, "POST", "/admin/tokens/", cookie, form("action", "regenerate", "user_id", "1")); p.status != 303 {
		t.Fatalf("regenerate: %d %s", p.status, p.body)
	}
	fresh, err := a.tokens.ForUser(ctx, a.alice.ID)
	if err != nil || fresh.Key == tok.Key {
		t.Fatalf("regenerate kept the key: %v", err)
	}

	if p := a.do(t, "POST", "/admin/tokens/", cookie, form("action", "delete", "key", fresh.Key)); p.status != 303 || p.location != "/admin/tokens/?done=deleted" {
		t.Fatalf("delete: %d %q", p.status, p.location)
	}
	if n := a.count(t, ""); n != 0 {
		t.Errorf("%d tokens after delete", n)
	}
	if p := a.do(t, "POST", "/admin/tokens/", cookie, form("action", "delete", "key", fresh.Key)); p.status != 400 {
		t.Errorf("delete twice: %d", p.status)
	}
}

func TestAdminPages(t *testing.T) {
	a := newAdmin(t)
	ctx := context.Background()
	for i := range adminPageSize + 5 {
		u, err := a.users.CreateUser(ctx, "user"+strconv.Itoa(i), "", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.tokens.GetOrCreate(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	cookie, _ := a.cookieFor(t, a.admin)
	first := a.do(t, "GET", "/admin/tokens/", cookie, nil)
	second := a.do(t, "GET", "/admin/tokens/?page=2", cookie, nil)
	if strings.Count(first.body, "<tr>")-1 != adminPageSize || !strings.Contains(first.body, `href="?page=2"`) {
		t.Errorf("first page has %d rows", strings.Count(first.body, "<tr>")-1)
	}
	if strings.Count(second.body, "<tr>")-1 != 5 || !strings.Contains(second.body, `href="?page=1"`) || strings.Contains(second.body, "page=3") {
		t.Errorf("second page has %d rows:\n%s", strings.Count(second.body, "<tr>")-1, second.body)
	}
	// Numbers past the last page, up to and beyond the largest int, show
	// the last page with its links; none overflows into a negative link.
	for _, page := range []string{"3", "92233720368547758", "9223372036854775807", "9223372036854775808", "99999999999999999999"} {
		p := a.do(t, "GET", "/admin/tokens/?page="+page, cookie, nil)
		if p.status != 200 || strings.Count(p.body, "<tr>")-1 != 5 || !strings.Contains(p.body, `href="?page=1"`) || strings.Contains(p.body, "page=-") {
			t.Errorf("?page=%s: %d, %d rows:\n%s", page, p.status, strings.Count(p.body, "<tr>")-1, p.body)
		}
	}
	for _, page := range []string{"0", "-9223372036854775808", "x"} {
		if p := a.do(t, "GET", "/admin/tokens/?page="+page, cookie, nil); p.status != 200 || !strings.Contains(p.body, `href="?page=2"`) || strings.Contains(p.body, "page=-") {
			t.Errorf("?page=%s is not the first page: %d\n%s", page, p.status, p.body)
		}
	}
}
