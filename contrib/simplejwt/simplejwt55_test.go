package simplejwt_test

import (
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/go-drf/drf/contrib/simplejwt"
	"github.com/go-drf/drf/framework/compat"
)

// At the default level the tokens answer as simplejwt 5.5.1 (the DRF 3.18
// reference's): user_id a string, the refreshed access token with its own
// iat, "Token is invalid" and "Token is expired" apart, and the refresh of
// an inactive user's token refused; at compat.DRF314 as simplejwt 5.2.2.
func TestSimpleJWT55(t *testing.T) {
	f := newFixtureAt(t, ":memory:", theReferences, compat.Current)
	refresh, access := f.pair(t)
	for _, tok := range []string{refresh, access} {
		if _, claims := payload(t, tok); claims["user_id"] != "1" {
			t.Errorf("user_id is %#v, not simplejwt 5.5's string \"1\"", claims["user_id"])
		}
	}
	if r := f.c.Get("/whoami/", bearer(access)); r.Status != 200 || r.Body != `{"username":"alice"}` {
		t.Errorf("whoami with a 5.5 token: %d %s", r.Status, r.Body)
	}
	r := f.c.Post("/token/refresh/", `{"refresh":"`+refresh+`"}`)
	var p struct{ Access string }
	r.Decode(&p)
	if r.Status != 200 || p.Access == "" {
		t.Fatalf("refresh: %d %s", r.Status, r.Body)
	}
	if _, a2 := payload(t, p.Access); a2["exp"].(float64)-a2["iat"].(float64) != 300 || a2["user_id"] != "1" {
		t.Errorf("refreshed access token %v: its own iat (exp - iat = 300) and user_id \"1\" expected", a2)
	}

	past := time.Now().Add(-10 * time.Second).Unix()
	for _, c := range []struct{ name, token, message string }{
		{"expired", sign(t, f, func(c *simplejwt.Claims) { c.SetInt("exp", past) }), "Token is expired"},
		{"not before, and expired", sign(t, f, func(c *simplejwt.Claims) {
			c.SetInt("exp", past)
			c.SetInt("nbf", time.Now().Add(time.Hour).Unix())
		}), "Token is invalid"},
		{"not before", sign(t, f, func(c *simplejwt.Claims) { c.SetInt("nbf", time.Now().Add(time.Hour).Unix()) }), "Token is invalid"},
		{"exp a string", sign(t, f, func(c *simplejwt.Claims) { c.SetString("exp", "soon") }), "Token is invalid"},
		{"other key", jwtWith(t, jwt.SigningMethodHS256, []byte("another key")), "Token is invalid"},
		{"not a JWT", "x.y.z", "Token is invalid"},
	} {
		want := `{"detail":"Given token not valid for any token type","code":"token_not_valid","messages":[{"token_class":"AccessToken","token_type":"access","message":"` + c.message + `"}]}`
		if r := f.c.Get("/whoami/", bearer(c.token)); r.Status != 401 || r.Body != want {
			t.Errorf("%s: %d %s\nwant %s", c.name, r.Status, r.Body, want)
		}
	}
	if r := f.c.Post("/token/verify/", `{"token":"abc"}`); r.Status != 401 || r.Body != `{"detail":"Token is invalid","code":"token_not_valid"}` {
		t.Errorf("verify, not a JWT: %d %s", r.Status, r.Body)
	}

	// A refresh token of an inactive user (bob), signed with the key.
	bobs := func(f *fixture) string {
		return sign(t, f, func(c *simplejwt.Claims) {
			c.SetString("token_type", "refresh")
			c.SetString("jti", "fedcba9876543210fedcba9876543210")
			c.SetString("user_id", "2")
		})
	}
	if r := f.c.Post("/token/refresh/", `{"refresh":"`+bobs(f)+`"}`); r.Status != 401 ||
		r.Body != `{"detail":"No active account found for the given token."}` || r.Header.Get("WWW-Authenticate") != challenge {
		t.Errorf("refresh of an inactive user's token: %d %s %q", r.Status, r.Body, r.Header.Get("WWW-Authenticate"))
	}

	old := newFixture(t, ":memory:", theReferences) // simplejwt 5.2
	refresh, _ = old.pair(t)
	if _, claims := payload(t, refresh); claims["user_id"] != float64(1) {
		t.Errorf("simplejwt 5.2: user_id is %#v, not the number 1", claims["user_id"])
	}
	if r := old.c.Post("/token/refresh/", `{"refresh":"`+bobs(old)+`"}`); r.Status != 200 {
		t.Errorf("simplejwt 5.2 refreshes an inactive user's token: %d %s", r.Status, r.Body)
	}
	if r := old.c.Post("/token/verify/", `{"token":"abc"}`); r.Body != `{"detail":"Token is invalid or expired","code":"token_not_valid"}` {
		t.Errorf("simplejwt 5.2, verify, not a JWT: %d %s", r.Status, r.Body)
	}
}
