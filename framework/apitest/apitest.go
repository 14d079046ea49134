// Package apitest sends requests to a service from tests, as DRF's
// APIClient does: in process, to the host "testserver", with headers
// written as "Name: value", cookies kept between requests, and each answer
// read whole. It works with any http.Handler: a framework.API, a compiled
// view, a chi router.
//
//	c := apitest.New(t, api)
//	r := c.Post("/api-token-auth/", `{"username":"alice","password":"pw"}`)
//	token := r.JSON()["token"]
//	r = c.Get("/notes/", "Authorization: Token "+token.(string))
//
// As DRF's APIClient, it can authenticate its requests without
// credentials (ForceAuthenticate), or log in and out through the session
// pages the service mounts (Login, Logout).
package apitest

import (
	"cmp"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
)

// View compiles v against the settings s (the defaults when none are
// given) on a new API, as API.Handler does: the handler of a test that
// needs one view and no routes.
func View(v framework.View, s ...framework.Settings) http.Handler {
	return framework.NewAPI(nil, append(s, framework.Settings{})[0]).Handler(v)
}

// Host is the host requests are sent to, Django's test client's.
const Host = "testserver"

// Client sends requests to a handler and keeps the cookies it sets.
type Client struct {
	t       testing.TB
	handler http.Handler
	// Jar keeps the cookies answers set and sends them back; nil keeps
	// none, for tests that send their own Cookie headers.
	Jar http.CookieJar
	// Header is sent with every request; a request's own header of the
	// same name replaces it.
	Header http.Header
	// Secure sends the requests as over HTTPS (Django's secure=True).
	Secure bool
	// LoginURL and LogoutURL are the session pages Login and Logout go
	// through; "" gives "/api-auth/login/"
	// and "/api-auth/logout/".
	LoginURL, LogoutURL string

	// forcedUser and forcedToken are ForceAuthenticate's; a nil user
	// for none.
	forcedUser  request.User
	forcedToken any
}

// Where DRF's urls mount the session pages (rest_framework.urls under
// "api-auth/"), the browsable page's defaults.
const (
	defaultLoginURL  = "/api-auth/login/"
	defaultLogoutURL = "/api-auth/logout/"
)

// New returns a client of h that reports failures to t.
func New(t testing.TB, h http.Handler) *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{t: t, handler: h, Jar: jar, Header: http.Header{}}
}

// Response is an answer, read whole.
type Response struct {
	t      testing.TB
	Status int
	Header http.Header
	Body   string
}

// Get sends a GET.
func (c *Client) Get(path string, header ...string) *Response {
	c.t.Helper()
	return c.Do(http.MethodGet, path, "", header...)
}

// Post sends a POST with body.
func (c *Client) Post(path, body string, header ...string) *Response {
	c.t.Helper()
	return c.Do(http.MethodPost, path, body, header...)
}

// Do sends a request to path (with its query) and returns the answer.
// Each header is "Name: value"; "Host: name" changes the host. A body
// without a Content-Type header is sent as application/json ("Content-Type:"
// sends an empty one).
func (c *Client) Do(method, path, body string, header ...string) *Response {
	c.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	scheme := "http"
	if c.Secure {
		scheme = "https"
	}
	req := httptest.NewRequest(method, scheme+"://"+Host+path, rd)
	for k, vs := range c.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	own := map[string]bool{}
	for _, h := range header {
		name, value, ok := strings.Cut(h, ":")
		if !ok {
			c.t.Fatalf("apitest: header %q is not \"Name: value\"", h)
		}
		name, value = http.CanonicalHeaderKey(strings.TrimSpace(name)), strings.TrimSpace(value)
		switch {
		case name == "Host":
			req.Host = value
		case !own[name]:
			own[name] = true
			req.Header.Set(name, value)
		default:
			req.Header.Add(name, value)
		}
	}
	if _, given := req.Header["Content-Type"]; body != "" && !given {
		req.Header.Set("Content-Type", "application/json")
	}
	u := &url.URL{Scheme: scheme, Host: req.Host, Path: req.URL.Path}
	if c.Jar != nil {
		for _, ck := range c.Jar.Cookies(u) {
			req.AddCookie(ck)
		}
	}
	req = request.ForceAuthenticate(req, c.forcedUser, c.forcedToken)
	rec := httptest.NewRecorder()
	c.handler.ServeHTTP(rec, req)
	if c.Jar != nil {
		c.Jar.SetCookies(u, rec.Result().Cookies())
	}
	return &Response{t: c.t, Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()}
}

// ForceAuthenticate makes the client's requests authenticate as user,
// with token as their auth, without credentials, as DRF's APIClient's
// force_authenticate: every view's schemes are replaced by this one
// (DRF's ForcedAuthentication), so a view needing a scheme of its own
// still sees the user. A nil user ends it.
func (c *Client) ForceAuthenticate(user request.User, token any) {
	c.forcedUser, c.forcedToken = user, token
}

// csrfField finds the hidden CSRF input of a Django form page.
var csrfField = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]+)">`)

// Login logs the client in through the login page the service mounts
// (LoginURL), as a browser does: it fetches the form for its CSRF token,
// posts the credentials with it and keeps the session cookie. It reports
// whether the page accepted them (Django's redirect), as Django's
// Client.login reports success; a page that is not mounted fails the
// test. The client needs its Jar.
func (c *Client) Login(username, password string) bool {
	c.t.Helper()
	if c.Jar == nil {
		c.t.Fatal("apitest: Login needs the client's Jar for the session cookie")
	}
	page := cmp.Or(c.LoginURL, defaultLoginURL)
	form := c.Get(page)
	m := csrfField.FindStringSubmatch(form.Body)
	if form.Status != http.StatusOK || m == nil {
		c.t.Fatalf("apitest: no login form at %s (%d):\n%s", page, form.Status, form.Body)
	}
	body := url.Values{m[1]: {html.UnescapeString(m[2])}, "username": {username}, "password": {password}}
	return c.Post(page, body.Encode(), "Content-Type: application/x-www-form-urlencoded").Status == http.StatusFound
}

// Logout ends what Login and ForceAuthenticate began, as DRF's APIClient's
// logout: the forced user is dropped, the session is ended through the
// logout page (LogoutURL, a POST with the csrftoken cookie's secret as
// X-CSRFToken, as Django 5 requires; Django 3.2 takes it too) when the
// client has cookies, and the cookies are forgotten.
func (c *Client) Logout() {
	c.t.Helper()
	c.forcedUser, c.forcedToken = nil, nil
	if c.Jar == nil {
		return
	}
	if len(c.Jar.Cookies(&url.URL{Scheme: "http", Host: Host, Path: "/"})) > 0 {
		c.Post(cmp.Or(c.LogoutURL, defaultLogoutURL), "", "X-CSRFToken: "+c.Cookie("csrftoken"))
	}
	c.Jar, _ = cookiejar.New(nil)
}

// Cookie returns the value of the cookie name the client would send to
// the path "/" of the host Host, "" if none.
func (c *Client) Cookie(name string) string {
	if c.Jar == nil {
		return ""
	}
	for _, ck := range c.Jar.Cookies(&url.URL{Scheme: "http", Host: Host, Path: "/"}) {
		if ck.Name == name {
			return ck.Value
		}
	}
	return ""
}

// Cookies returns the cookies the answer sets (its Set-Cookie headers).
func (r *Response) Cookies() []*http.Cookie {
	return (&http.Response{Header: r.Header}).Cookies()
}

// JSON decodes the body as a JSON object; a body that is not one fails
// the test.
func (r *Response) JSON() map[string]any {
	r.t.Helper()
	var m map[string]any
	r.Decode(&m)
	return m
}

// Decode decodes the body as JSON into v; a body that is not JSON fails
// the test.
func (r *Response) Decode(v any) {
	r.t.Helper()
	if err := json.Unmarshal([]byte(r.Body), v); err != nil {
		r.t.Fatalf("apitest: %d answer is not JSON: %v\n%s", r.Status, err, r.Body)
	}
}
