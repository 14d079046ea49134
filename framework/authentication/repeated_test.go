package authentication_test

import (
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
)

// TestRepeatedAuthorizationHeader: a request carrying the Authorization
// header twice is read as DRF reads it under gunicorn, the two fields
// joined by a comma ("Token KEY,Token OTHER"), never as its first field:
// two credentials are three words, refused with the first scheme that
// attempts' message for spaces, and a second field that adds no word
// changes the key or the base64 text of the first. Answers as the DRF
// reference gives them; the same of the X-Username header of a user's
// own scheme.
func TestRepeatedAuthorizationHeader(t *testing.T) {
	w := newWorld(t)
	key := w.token(t, w.alice)
	token := authentication.Token{Tokens: w.tokens}
	basicScheme := authentication.Basic{Users: auth.ModelBackend{Users: w.users}}
	calls := 0
	custom := headerScheme{users: w.users, calls: &calls}
	tokenFirst := serve(t, framework.IsAuthenticated{}, token, basicScheme)
	basicFirst := serve(t, framework.IsAuthenticated{}, basicScheme, token)
	customOnly := serve(t, framework.IsAuthenticated{}, custom)
	const notProvided = "Authentication credentials were not provided."
	for _, tc := range []struct {
		name      string
		basic     bool // to basicFirst, else tokenFirst
		headers   []string
		status    int
		challenge string
		detail    string
		user      string // authenticated
	}{
		{"alice's token, then another", false, []string{"Authorization: Token " + key, "Authorization: Token 0000000000000000000000000000000000000000"},
			401, "Token", "Invalid token header. Token string should not contain spaces.", ""},
		{"alice's token twice", false, []string{"Authorization: Token " + key, "Authorization: Token " + key},
			401, "Token", "Invalid token header. Token string should not contain spaces.", ""},
		{"alice's token, then the keyword", false, []string{"Authorization: Token " + key, "Authorization: Token"},
			401, "Token", "Invalid token.", ""},
		{"alice's token, then an empty field", false, []string{"Authorization: Token " + key, "Authorization:"},
			401, "Token", "Invalid token.", ""},
		{"an empty field, then alice's token", false, []string{"Authorization:", "Authorization: Token " + key},
			401, "Token", notProvided, ""},
		{"alice's password, then admin's wrong one", true, []string{"Authorization: " + basic("alice", "alice-pass"), "Authorization: " + basic("admin", "wrong")},
			401, `Basic realm="api"`, "Invalid basic header. Credentials string should not contain spaces.", ""},
		{"alice's password, then a token", true, []string{"Authorization: " + basic("alice", "alice-pass"), "Authorization: Token " + key},
			401, `Basic realm="api"`, "Invalid basic header. Credentials string should not contain spaces.", ""},
		{"a token, then alice's password", true, []string{"Authorization: Token " + key, "Authorization: " + basic("alice", "alice-pass")},
			401, `Basic realm="api"`, "Invalid token header. Token string should not contain spaces.", ""},
		{"two passwords to a Token-first view", false, []string{"Authorization: " + basic("alice", "alice-pass"), "Authorization: " + basic("admin", "wrong")},
			401, "Token", "Invalid basic header. Credentials string should not contain spaces.", ""},
		// Python's base64 decoder skips the comma and stops at the padding.
		{"alice's password, then the keyword", true, []string{"Authorization: " + basic("alice", "alice-pass"), "Authorization: Basic"},
			200, "", "", "alice"},
		{"alice's password, then an empty field", true, []string{"Authorization: " + basic("alice", "alice-pass"), "Authorization:"},
			200, "", "", "alice"},
	} {
		srv := tokenFirst
		if tc.basic {
			srv = basicFirst
		}
		a := do(t, srv, "GET", "/", "", tc.headers...)
		if user, _ := a.body["username"].(string); a.status != tc.status || a.challenge != tc.challenge || a.detail() != tc.detail || user != tc.user {
			t.Errorf("%s: %d %q %v", tc.name, a.status, a.challenge, a.body)
		}
	}
	for _, second := range []string{"X-Username: admin", "X-Username:", "X-Username: alice"} {
		if a := do(t, customOnly, "GET", "/", "", "X-Username: alice", second); a.status != 403 || a.detail() != "No such user" {
			t.Errorf("X-Username: alice, then %s: %d %v", second, a.status, a.body)
		}
	}
}
