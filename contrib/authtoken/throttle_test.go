package authtoken_test

import (
	"encoding/base64"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/throttling"
)

// countingParser is JSON's parser, counting the bodies it parses.
type countingParser struct {
	framework.JSONParser
	n *int
}

func (p countingParser) Parse(body io.Reader, params map[string]string) (any, error) {
	*p.n++
	return p.JSONParser.Parse(body, params)
}

// TestLoginAttemptThrottle: a user authenticated by Basic, whom DRF's
// anonymous throttle never counts, guesses admin's password: the login
// throttle answers 429 after its rate, whatever the form of the body and
// the case of the name, while the same client may still log in as
// another user, another client as admin, and requests that check no
// password are not counted. Each body is parsed once.
func TestLoginAttemptThrottle(t *testing.T) {
	f := newFixture(t, ":memory:")
	asAlice := "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("alice:alice-pass"))
	const unable = `{"non_field_errors":["Unable to log in with provided credentials."]}`

	// DRF's throttle alone: an authenticated guesser is never throttled.
	drf := f.obtainServer(t, authtoken.ObtainToken{Users: f.users, Tokens: f.tokens}, func(v *framework.View, s *framework.Settings) {
		s.ThrottleRates = map[string]string{"anon": "3/minute"}
		s.ThrottleCache = &cache.Memory{}
		v.Throttles = framework.Throttles(throttling.AnonRateThrottle())
	})
	for i := range 10 {
		if a := drf.Post("/", `{"username":"admin","password":"guess"}`, asAlice); a.Status != 400 || a.Body != unable {
			t.Fatalf("anonymous throttle alone, guess %d: %d %s", i+1, a.Status, a.Body)
		}
	}

	parsed := 0
	c := f.obtainServer(t, authtoken.ObtainToken{Users: f.users, Tokens: f.tokens}, func(v *framework.View, s *framework.Settings) {
		s.ThrottleRates = map[string]string{"anon": "3/minute", "login": "4/minute"}
		s.ThrottleCache = &cache.Memory{}
		s.NumProxies = 1 // clients told apart by X-Forwarded-For
		v.Throttles = framework.Throttles(throttling.AnonRateThrottle(), authtoken.LoginAttemptThrottle())
		v.Parsers = framework.Parsers(framework.FormParser{}, framework.MultiPartParser{}, countingParser{n: &parsed})
	})
	const client = "X-Forwarded-For: 203.0.113.1"
	guesses := []struct{ body, contentType string }{
		{`{"username":"admin","password":"guess1"}`, "application/json"},
		{"username=ADMIN&password=guess2", "application/x-www-form-urlencoded"},
		{`{"username":" Admin ","password":"guess3"}`, "application/json"},
		{"--b\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nadmin\r\n" +
			"--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nguess4\r\n--b--\r\n", "multipart/form-data; boundary=b"},
	}
	for i, g := range guesses {
		if a := c.Post("/", g.body, asAlice, client, "Content-Type: "+g.contentType); a.Status != 400 || a.Body != unable {
			t.Fatalf("guess %d: %d %s", i+1, a.Status, a.Body)
		}
	}
	for _, body := range []string{`{"username":"admin","password":"guess5"}`, `{"username":"admin","password":"admin-pass"}`} {
		a := c.Post("/", body, asAlice, client)
		if a.Status != 429 || a.Header.Get("Retry-After") != "60" || a.Body != `{"detail":"Request was throttled. Expected available in 60 seconds."}` {
			t.Errorf("%s after 4 guesses: %d %v %s, want 429", body, a.Status, a.Header, a.Body)
		}
	}
	if parsed != 4 {
		t.Errorf("%d JSON bodies parsed for 4 requests", parsed)
	}

	other := []struct {
		what, method, body string
		header             []string
		status             int
	}{
		{"the same client as alice", "POST", `{"username":"alice","password":"alice-pass"}`, []string{asAlice, client}, 200},
		{"another client as admin", "POST", `{"username":"admin","password":"admin-pass"}`, []string{asAlice, "X-Forwarded-For: 203.0.113.2"}, 200},
		{"no password", "POST", `{"username":"admin"}`, []string{asAlice, client}, 400},
		{"not a POST", "PUT", `{"username":"admin","password":"admin-pass"}`, []string{asAlice, client}, 405},
	}
	for _, o := range other {
		if a := c.Do(o.method, "/", o.body, o.header...); a.Status != o.status {
			t.Errorf("%s: %d %s, want %d", o.what, a.Status, a.Body, o.status)
		}
	}
}

// TestLoginAttemptThrottleRate: the throttle's own Rate overrides the
// "login" scope's setting.
func TestLoginAttemptThrottleRate(t *testing.T) {
	f := newFixture(t, ":memory:")
	login := authtoken.LoginAttemptThrottle()
	login.Rate = "1/hour"
	c := apitest.New(t, framework.NewAPI(f.db, framework.Settings{ThrottleCache: &cache.Memory{}}).Handler(func() framework.View {
		v := authtoken.ObtainToken{Users: f.users, Tokens: f.tokens}.View()
		v.Throttles = framework.Throttles(login)
		return v
	}()))
	if a := c.Post("/", `{"username":"alice","password":"x"}`); a.Status != 400 {
		t.Fatalf("first attempt: %d %s", a.Status, a.Body)
	}
	if a := c.Post("/", `{"username":"alice","password":"alice-pass"}`); a.Status != 429 || a.Header.Get("Retry-After") != "3600" {
		t.Errorf("second attempt within the hour: %d %v %s", a.Status, a.Header, a.Body)
	}
}

// TestAttemptedUsername: the name a POST attempts, as the view reads it.
func TestAttemptedUsername(t *testing.T) {
	for _, c := range []struct{ method, contentType, body, want string }{
		{"POST", "application/json", `{"username":" Alice ","password":"x"}`, "Alice"},
		{"POST", "application/x-www-form-urlencoded", "username=bob&username=alice&password=x", "alice"},
		{"POST", "application/json", `{"username":7,"password":"x"}`, "7"},
		{"POST", "application/json", `{"username":"alice"}`, ""},
		{"POST", "application/json", `{"username":" ","password":"x"}`, ""},
		{"POST", "application/json", `{"username":`, ""},
		{"POST", "text/plain", "alice", ""},
		{"PUT", "application/json", `{"username":"alice","password":"x"}`, ""},
	} {
		hr := httptest.NewRequest(c.method, "/", strings.NewReader(c.body))
		hr.Header.Set("Content-Type", c.contentType)
		r := request.New(hr, request.Config{Parsers: []request.Parser{framework.JSONParser{}, framework.FormParser{}}})
		if got := authtoken.AttemptedUsername(r); got != c.want {
			t.Errorf("%s %s %s: %q, want %q", c.method, c.contentType, c.body, got, c.want)
		}
	}
}
