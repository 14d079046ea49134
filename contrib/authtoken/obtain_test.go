package authtoken_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"path/filepath"
	"sync"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/throttling"
)

// settings are the sample's: Session, Token and Basic, JSON and the other
// renderers, so that the obtain view's own choices show.
func (f *fixture) settings() framework.Settings {
	m := &sessions.Manager{DB: f.db, Users: f.users, SecretKey: "test-secret-key"}
	return framework.Settings{Authentication: framework.Authenticators(
		authentication.Session{Sessions: m},
		authentication.Token{Tokens: f.tokens},
		authentication.Basic{Users: auth.ModelBackend{Users: f.users}},
	)}
}

func (f *fixture) obtainServer(t *testing.T, o authtoken.ObtainToken, configure ...func(*framework.View, *framework.Settings)) *apitest.Client {
	t.Helper()
	v, s := o.View(), f.settings()
	for _, c := range configure {
		c(&v, &s)
	}
	return apitest.New(t, framework.NewAPI(f.db, s).Handler(v))
}

const jsonType = "Content-Type: application/json"

// The bodies below are the reference's answers to the same requests.
func TestObtainToken(t *testing.T) {
	f := newFixture(t, ":memory:")
	srv := f.obtainServer(t, authtoken.ObtainToken{Users: f.users, Tokens: f.tokens})
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	mw.WriteField("username", "alice")
	mw.WriteField("password", "alice-pass")
	mw.Close()
	var mpFile bytes.Buffer
	mwf := multipart.NewWriter(&mpFile)
	mwf.WriteField("username", "alice")
	fw, _ := mwf.CreateFormFile("password", "password.txt")
	fw.Write([]byte("alice-pass"))
	mwf.Close()

	const unable = `{"non_field_errors":["Unable to log in with provided credentials."]}`
	const required = `{"username":["This field is required."],"password":["This field is required."]}`
	cases := []struct {
		name, method, body string
		headers            []string
		status             int
		want               string
	}{
		{"empty object", "POST", `{}`, []string{jsonType}, 400, required},
		{"no body", "POST", ``, nil, 400, required},
		{"empty form", "POST", ``, []string{"Content-Type: application/x-www-form-urlencoded"}, 400, required},
		{"username only", "POST", `{"username":"alice"}`, []string{jsonType}, 400, `{"password":["This field is required."]}`},
		{"blanks", "POST", `{"username":"","password":""}`, []string{jsonType}, 400,
			`{"username":["This field may not be blank."],"password":["This field may not be blank."]}`},
		{"username of spaces is blank, password of spaces is not", "POST", `{"username":"   ","password":"   "}`, []string{jsonType}, 400,
			`{"username":["This field may not be blank."]}`},
		{"null username", "POST", `{"username":null,"password":"x"}`, []string{jsonType}, 400, `{"username":["This field may not be null."]}`},
		{"not strings", "POST", `{"username":{},"password":[]}`, []string{jsonType}, 400,
			`{"username":["Not a valid string."],"password":["Not a valid string."]}`},
		{"boolean", "POST", `{"username":true,"password":"x"}`, []string{jsonType}, 400, `{"username":["Not a valid string."]}`},
		{"null character", "POST", `{"username":"al\u0000ice","password":"x\u0000"}`, []string{jsonType}, 400,
			`{"username":["Null characters are not allowed."],"password":["Null characters are not allowed."]}`},
		{"number is taken as text", "POST", `{"username":5,"password":"alice-pass"}`, []string{jsonType}, 400, unable},
		{"wrong password", "POST", `{"username":"alice","password":"x"}`, []string{jsonType}, 400, unable},
		{"unknown user", "POST", `{"username":"nobody","password":"x"}`, []string{jsonType}, 400, unable},
		{"inactive user", "POST", `{"username":"bob","password":"bob-pass"}`, []string{jsonType}, 400, unable},
		{"list", "POST", `[]`, []string{jsonType}, 400, `{"non_field_errors":["Invalid data. Expected a dictionary, but got list."]}`},
		{"string", "POST", `"x"`, []string{jsonType}, 400, `{"non_field_errors":["Invalid data. Expected a dictionary, but got str."]}`},
		{"integer", "POST", `5`, []string{jsonType}, 400, `{"non_field_errors":["Invalid data. Expected a dictionary, but got int."]}`},
		{"float", "POST", `5.5`, []string{jsonType}, 400, `{"non_field_errors":["Invalid data. Expected a dictionary, but got float."]}`},
		{"bool", "POST", `true`, []string{jsonType}, 400, `{"non_field_errors":["Invalid data. Expected a dictionary, but got bool."]}`},
		{"null", "POST", `null`, []string{jsonType}, 400, `{"non_field_errors":["No data provided"]}`},
		{"file as password", "POST", mpFile.String(), []string{"Content-Type: " + mwf.FormDataContentType()}, 400, `{"password":["Not a valid string."]}`},
		{"plain text", "POST", `x`, []string{"Content-Type: text/plain"}, 415, `{"detail":"Unsupported media type \"text/plain\" in request."}`},
		{"GET", "GET", ``, nil, 405, `{"detail":"Method \"GET\" not allowed."}`},
		{"HTML only", "POST", `username=alice&password=alice-pass`, []string{"Accept: text/html", "Content-Type: application/x-www-form-urlencoded"}, 406,
			`{"detail":"Could not satisfy the request Accept header."}`},
		{"bad token header", "POST", `{"username":"alice","password":"alice-pass"}`, []string{jsonType, "Authorization: Token nope"}, 403, `{"detail":"Invalid token."}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := srv.Do(c.method, "/", c.body, c.headers...)
			if a.Status != c.status || a.Body != c.want {
				t.Fatalf("got %d %s\nwant %d %s", a.Status, a.Body, c.status, c.want)
			}
			if a.Header.Get("Content-Type") != "application/json" || a.Header.Get("Allow") != "POST, OPTIONS" {
				t.Errorf("headers %v", a.Header)
			}
		})
	}

	var key string
	for _, c := range []struct {
		name, body string
		headers    []string
	}{
		{"JSON", `{"username":"alice","password":"alice-pass"}`, []string{jsonType}},
		{"trimmed username, extra fields", `{"username":"  alice ","password":"alice-pass","extra":1}`, []string{jsonType}},
		{"form", `username=alice&password=alice-pass`, []string{"Content-Type: application/x-www-form-urlencoded"}},
		{"multipart", mp.String(), []string{"Content-Type: " + mw.FormDataContentType()}},
		{"HTML preferred, JSON accepted", `username=alice&password=alice-pass`, []string{"Content-Type: application/x-www-form-urlencoded", "Accept: text/html, application/json;q=0.5"}},
		{"with Basic credentials", `{"username":"alice","password":"alice-pass"}`, []string{jsonType, "Authorization: " + "Basic YWRtaW46YWRtaW4tcGFzcw=="}},
	} {
		a := srv.Do("POST", "/", c.body, c.headers...)
		m := a.JSON()
		got, _ := m["token"].(string)
		if a.Status != 200 || len(m) != 1 || !hexKey.MatchString(got) {
			t.Fatalf("%s: %d %s", c.name, a.Status, a.Body)
		}
		if key != "" && got != key {
			t.Errorf("%s: a second token %s (first %s)", c.name, got, key)
		}
		key = got
	}
	if n := f.count(t, ""); n != 1 {
		t.Errorf("%d tokens", n)
	}

	a := srv.Do("OPTIONS", "/", "")
	want := `{"name":"Obtain Auth Token","description":"","renders":["application/json"],` +
		`"parses":["application/x-www-form-urlencoded","multipart/form-data","application/json"],` +
		`"actions":{"POST":{"username":{"type":"string","required":true,"read_only":false,"label":"Username"},` +
		`"password":{"type":"string","required":true,"read_only":false,"label":"Password"},` +
		`"token":{"type":"string","required":false,"read_only":true,"label":"Token"}}}}`
	if a.Status != 200 || a.Body != want {
		t.Errorf("OPTIONS: %d %s", a.Status, a.Body)
	}
}

// extraAnswer is the sample's /api-token-auth-extra/ answer.
type extraAnswer struct {
	Token  string `json:"token"`
	UserID int64  `json:"user_id"`
	Email  string `json:"email"`
}

func TestObtainTokenExtraFieldsAndThrottle(t *testing.T) {
	f := newFixture(t, ":memory:")
	o := authtoken.ObtainToken{Users: f.users, Tokens: f.tokens, Answer: func(t *authtoken.Token, u *auth.User) any {
		return extraAnswer{Token: t.Key, UserID: u.ID, Email: u.Email}
	}}
	extra := f.obtainServer(t, o)
	a := extra.Do("POST", "/", `{"username":"alice","password":"alice-pass"}`, jsonType)
	tok, err := f.tokens.ForUser(context.Background(), f.alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"token":"` + tok.Key + `","user_id":1,"email":"alice@example.com"}`; a.Status != 200 || a.Body != want {
		t.Errorf("extra: %d %s, want %s", a.Status, a.Body, want)
	}

	throttled := f.obtainServer(t, authtoken.ObtainToken{Users: f.users, Tokens: f.tokens}, func(v *framework.View, s *framework.Settings) {
		s.ThrottleRates = map[string]string{"anon": "3/minute"}
		s.ThrottleCache = &cache.Memory{}
		v.Throttles = framework.Throttles(throttling.AnonRateThrottle())
	})
	for i, body := range []string{`{"username":"alice","password":"x"}`, `{}`, `{"username":"alice","password":"alice-pass"}`} {
		if a := throttled.Do("POST", "/", body, jsonType); a.Status == 429 {
			t.Fatalf("call %d throttled", i+1)
		}
	}
	a = throttled.Do("POST", "/", `{"username":"alice","password":"alice-pass"}`, jsonType)
	if a.Status != 429 || a.Header.Get("Retry-After") != "60" || a.Body != `{"detail":"Request was throttled. Expected available in 60 seconds."}` {
		t.Errorf("4th call: %d %v %s", a.Status, a.Header, a.Body)
	}
	a = throttled.Do("POST", "/", `{"username":"alice","password":"alice-pass"}`, jsonType, "Authorization: Basic YWRtaW46YWRtaW4tcGFzcw==")
	if a.Status != 200 {
		t.Errorf("authenticated caller throttled: %d %s", a.Status, a.Body)
	}
}

// 50 clients obtaining a token for one user at once: all succeed with the
// same key, and one row exists.
func TestObtainTokenConcurrently(t *testing.T) {
	f := newFixture(t, filepath.Join(t.TempDir(), "db.sqlite3"))
	srv := f.obtainServer(t, authtoken.ObtainToken{Users: f.users, Tokens: f.tokens})
	const n = 50
	var wg sync.WaitGroup
	keys := make([]string, n)
	statuses := make([]int, n)
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			a := srv.Do("POST", "/", `{"username":"alice","password":"alice-pass"}`)
			statuses[i], keys[i] = a.Status, a.Body
		})
	}
	close(start)
	wg.Wait()
	for i := range n {
		if statuses[i] != 200 || keys[i] != keys[0] {
			t.Fatalf("client %d: %d %s (client 0: %s)", i, statuses[i], keys[i], keys[0])
		}
	}
	if rows := f.count(t, ""); rows != 1 {
		t.Errorf("%d rows, want 1", rows)
	}
}
