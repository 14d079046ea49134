package authentication_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/request"
)

// fuzzUser is a user of the fake stores.
type fuzzUser struct {
	name   string
	active bool
}

func (u fuzzUser) GetUsername() string   { return u.name }
func (u fuzzUser) IsAuthenticated() bool { return true }
func (u fuzzUser) IsActive() bool        { return u.active }
func (u fuzzUser) IsStaff() bool         { return false }

// The fake stores know alice (active) and bob (inactive), each with a
// password and a 40-character token key. Like a backend that lets inactive
// users authenticate, the password store returns bob, so that the scheme
// itself must refuse him.
var (
	fuzzAlice    = fuzzUser{"alice", true}
	fuzzBob      = fuzzUser{"bob", false}
	fuzzAliceKey = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
	fuzzBobKey   = "0000b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
)

// fuzzStore is the fake user and token store; it records the last
// credentials it was asked about.
type fuzzStore struct {
	mu                 sync.Mutex
	calls              int
	username, password string
	key                string
}

func (s *fuzzStore) CheckPassword(_ context.Context, username, password string) (request.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.username, s.password = username, password
	switch {
	case username == "alice" && password == "alice-pass":
		return fuzzAlice, nil
	case username == "bob" && password == "bob-pass":
		return fuzzBob, nil
	}
	return nil, nil
}

func (s *fuzzStore) LookupToken(_ context.Context, key string) (request.User, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.key = key
	switch key {
	case fuzzAliceKey:
		return fuzzAlice, "token:" + key, nil
	case fuzzBobKey:
		return fuzzBob, "token:" + key, nil
	}
	return nil, nil, nil
}

func (s *fuzzStore) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls, s.username, s.password, s.key = 0, "", "", ""
}

// protected is a view that needs an authenticated user and answers
// {"username", "auth"}.
func fuzzProtected(scheme request.Authenticator) http.Handler {
	return apitest.View(framework.View{
		Authentication: framework.Authenticators(scheme),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]any{"username": r.User().GetUsername(), "auth": r.Auth()}), nil
		},
	})
}

// answer is what the view answered.
type fuzzAnswer struct {
	status    int
	challenge string
	detail    string
	username  string
	auth      any
}

func fuzzGet(t *testing.T, h http.Handler, authorization string) fuzzAnswer {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/protected/", nil)
	req.Header.Set("Authorization", authorization)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var body struct {
		Detail   string
		Username string
		Auth     any
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("Authorization %q: %d with a body that is not JSON: %q", authorization, rec.Code, rec.Body.String())
	}
	return fuzzAnswer{rec.Code, rec.Header().Get("WWW-Authenticate"), body.Detail, body.Username, body.Auth}
}

// words splits an Authorization header as DRF splits its bytes: on ASCII
// whitespace only.
func fuzzWords(h string) []string {
	return strings.FieldsFunc(h, func(c rune) bool { return strings.ContainsRune(" \t\n\r\v\f", c) })
}

// fuzzLower lowers ASCII letters only, as Python's bytes.lower does.
func fuzzLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// fuzzRefused fails unless a is a 401 with the challenge and detail.
func fuzzRefused(t *testing.T, header string, a fuzzAnswer, challenge, detail string) {
	t.Helper()
	if a.status != http.StatusUnauthorized || a.challenge != challenge || a.detail != detail {
		t.Fatalf("Authorization %q: got %d %q %q, want 401 %q %q", header, a.status, a.challenge, a.detail, challenge, detail)
	}
}

// FuzzBasicHeader sends any Authorization header to a view protected by
// Basic alone. DRF's rules decide the answer: no attempt (401 "not
// provided") unless the first word is "basic" in ASCII case; 401 with the
// scheme's message for a header without credentials, with spaces, or not
// base64; otherwise the store is asked for the decoded user and password,
// and only alice's own password gives 200. Every refusal is 401 with
// `WWW-Authenticate: Basic realm="api"`. The header's text, read as
// "user:password" and encoded properly, reaches the store unchanged; one
// without a colon is refused as not base64, as DRF 3.15 does (#8790).
func FuzzBasicHeader(f *testing.F) {
	store := &fuzzStore{}
	h := fuzzProtected(authentication.Basic{Users: store})
	const challenge = `Basic realm="api"`
	f.Fuzz(func(t *testing.T, header string) {
		store.reset()
		a := fuzzGet(t, h, header)
		w := fuzzWords(header)
		switch {
		case len(w) == 0 || fuzzLower(w[0]) != "basic":
			fuzzRefused(t, header, a, challenge, "Authentication credentials were not provided.")
			if store.calls != 0 {
				t.Fatalf("Authorization %q: the store was asked", header)
			}
		case len(w) == 1:
			fuzzRefused(t, header, a, challenge, "Invalid basic header. No credentials provided.")
		case len(w) > 2:
			fuzzRefused(t, header, a, challenge, "Invalid basic header. Credentials string should not contain spaces.")
		case a.status == http.StatusOK:
			if a.username != "alice" || store.username != "alice" || store.password != "alice-pass" {
				t.Fatalf("Authorization %q: 200 as %q after checking %q/%q", header, a.username, store.username, store.password)
			}
		case a.detail == "Invalid basic header. Credentials not correctly base64 encoded.":
			fuzzRefused(t, header, a, challenge, a.detail)
			if store.calls != 0 {
				t.Fatalf("Authorization %q: refused as not base64 after asking the store", header)
			}
		default:
			if store.calls != 1 {
				t.Fatalf("Authorization %q: %d %q without asking the store", header, a.status, a.detail)
			}
			want := "Invalid username/password."
			if store.username == "bob" && store.password == "bob-pass" {
				want = "User inactive or deleted."
			}
			fuzzRefused(t, header, a, challenge, want)
		}

		// Round trip: the text as user:password, properly encoded.
		if header == "" || !utf8.ValidString(header) {
			return
		}
		store.reset()
		encoded := "Basic " + base64.StdEncoding.EncodeToString([]byte(header))
		a = fuzzGet(t, h, encoded)
		user, password, colon := strings.Cut(header, ":")
		if !colon {
			// Not credentials from DRF 3.15 on (#8790).
			fuzzRefused(t, encoded, a, challenge, "Invalid basic header. Credentials not correctly base64 encoded.")
			if store.calls != 0 {
				t.Fatalf("%q encoded: no colon, and the store was asked", header)
			}
			return
		}
		if store.calls != 1 || store.username != user || store.password != password {
			t.Fatalf("%q encoded: the store got %q/%q, want %q/%q", header, store.username, store.password, user, password)
		}
		if (a.status == http.StatusOK) != (user == "alice" && password == "alice-pass") {
			t.Fatalf("%q encoded: %d %q", header, a.status, a.detail)
		}
	})
}

// FuzzTokenHeader sends any Authorization header to a view protected by
// Token alone. DRF's rules decide the answer: no attempt unless the first
// word is "token" in ASCII case; 401 for a header without a key, with
// spaces, or with a key that is not UTF-8; otherwise the key is looked up
// as sent, only alice's exact key gives 200 (with the token as auth), bob's
// is "User inactive or deleted." and any other, however close, "Invalid
// token.". Every refusal is 401 with `WWW-Authenticate: Token`.
func FuzzTokenHeader(f *testing.F) {
	store := &fuzzStore{}
	h := fuzzProtected(authentication.Token{Tokens: store})
	f.Fuzz(func(t *testing.T, header string) {
		store.reset()
		a := fuzzGet(t, h, header)
		w := fuzzWords(header)
		switch {
		case len(w) == 0 || fuzzLower(w[0]) != "token":
			fuzzRefused(t, header, a, "Token", "Authentication credentials were not provided.")
		case len(w) == 1:
			fuzzRefused(t, header, a, "Token", "Invalid token header. No credentials provided.")
		case len(w) > 2:
			fuzzRefused(t, header, a, "Token", "Invalid token header. Token string should not contain spaces.")
		case !utf8.ValidString(w[1]):
			fuzzRefused(t, header, a, "Token", "Invalid token header. Token string should not contain invalid characters.")
		case w[1] == fuzzAliceKey:
			if a.status != http.StatusOK || a.username != "alice" || a.auth != "token:"+fuzzAliceKey {
				t.Fatalf("Authorization %q: got %d %q %v", header, a.status, a.detail, a.auth)
			}
		case w[1] == fuzzBobKey:
			fuzzRefused(t, header, a, "Token", "User inactive or deleted.")
		default:
			fuzzRefused(t, header, a, "Token", "Invalid token.")
		}
		if len(w) == 2 && fuzzLower(w[0]) == "token" && utf8.ValidString(w[1]) && (store.calls != 1 || store.key != w[1]) {
			t.Fatalf("Authorization %q: looked up %q (%d calls), want %q", header, store.key, store.calls, w[1])
		}
	})
}
