package oidc_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/go-drf/drf/contrib/oidc"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// apiUnchecked is api without the setup check: a scheme someone built
// and never checked.
func apiUnchecked(t *testing.T, a oidc.Authentication) *apitest.Client {
	t.Helper()
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/books/", framework.View{
		Name:           "Books",
		Authentication: framework.Authenticators(a),
		Permissions:    framework.Permissions(oidc.HasScope("books:read")),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]any{"user": r.User().GetUsername()}), nil
		},
	})
	return apitest.New(t, api)
}

// expect checks the answer to a request with the token: 200, or the
// refusal of desc.
func expect(t *testing.T, c *apitest.Client, name, token string, desc string) {
	t.Helper()
	r := c.Get("/books/", "Authorization: Bearer "+token)
	if desc == "" {
		if r.Status != 200 {
			t.Errorf("%s: %d %s, want 200", name, r.Status, r.Body)
		}
		return
	}
	status, body, challenge := refused(desc)
	if r.Status != status || r.Body != body || r.Header.Get("WWW-Authenticate") != challenge {
		t.Errorf("%s: %d %s %q\nwant %d %s %q", name, r.Status, r.Body, r.Header.Get("WWW-Authenticate"), status, body, challenge)
	}
}

// The audience is required: New without one is an error naming it and
// the opt-out; a scheme built without either refuses every token (the
// other clients' tokens above all); AcceptAnyAudience is the explicit
// opt-out.
func TestAudienceRequired(t *testing.T) {
	is := newIssuer(t)
	k := rsaKey(t)
	is.publish(t, "k", k)
	jwks := is.srv.URL + "/jwks"
	if _, err := oidc.New(is.srv.URL, "", jwks); err == nil ||
		!strings.Contains(err.Error(), "Audience") || !strings.Contains(err.Error(), "AcceptAnyAudience") {
		t.Errorf("New without an audience: %v, want an error naming Audience and AcceptAnyAudience", err)
	}

	films := sign(t, jwt.SigningMethodRS256, "k", k, claimsWith(is.claims("books:read"), "aud", "films-api"))
	books := sign(t, jwt.SigningMethodRS256, "k", k, is.claims("books:read"))
	noAud := sign(t, jwt.SigningMethodRS256, "k", k, claimsWith(is.claims("books:read"), "aud", nil))

	// Built by hand, Check never called: fails closed.
	unchecked := apiUnchecked(t, oidc.Authentication{Issuer: is.srv.URL, Keys: &oidc.KeySet{URL: jwks}})
	expect(t, unchecked, "no audience configured, another client's token", films, "The access token is not meant for this service.")
	expect(t, unchecked, "no audience configured, a token without aud", noAud, "The access token is not meant for this service.")
	expect(t, unchecked, "no audience configured, even books-api's token", books, "The access token is not meant for this service.")

	c := api(t, newAuth(t, is))
	expect(t, c, "another audience", films, "The access token is not meant for this service.")
	expect(t, c, "no aud", noAud, "The access token lacks a claim it must have (exp, iss, or aud).")
	expect(t, c, "this audience", books, "")

	anyAud := api(t, oidc.Authentication{Issuer: is.srv.URL, AcceptAnyAudience: true, Keys: &oidc.KeySet{URL: jwks}})
	expect(t, anyAud, "AcceptAnyAudience, another audience", films, "")
	expect(t, anyAud, "AcceptAnyAudience, no aud", noAud, "")
	expect(t, anyAud, "AcceptAnyAudience, this audience", books, "")
}

// The JOSE header typ must be an access token's (RFC 9068 §4): at+jwt in
// any case, "application/" optional. ID tokens and logout tokens are
// refused, by their typ or, with AcceptPlainJWT, by their claims; a wrong
// typ does not make the key set be fetched.
func TestTokenType(t *testing.T) {
	is := newIssuer(t)
	k := rsaKey(t)
	is.publish(t, "k", k)
	strict := api(t, newAuth(t, is))
	lenient := newAuth(t, is)
	lenient.AcceptPlainJWT = true
	plain := api(t, lenient)

	rs := func(typ any, claims jwt.MapClaims) string {
		return signTyp(t, jwt.SigningMethodRS256, "k", typ, k, claims)
	}
	access := is.claims("books:read")
	// An ID token of a client whose id is the audience configured, as a
	// service that is its own client has: only its kind tells it apart.
	idToken := claimsWith(claimsWith(claimsWith(access, "scope", nil), "nonce", "n-0S6_WzA2Mj"), "at_hash", "77QmUPtjPfzWtF2AnpK9RQ")
	idNoHash := claimsWith(claimsWith(access, "scope", nil), "nonce", "n-0S6_WzA2Mj")
	logout := claimsWith(claimsWith(claimsWith(claimsWith(access, "scope", nil), "exp", nil), "events",
		map[string]any{"http://schemas.openid.net/event/backchannel-logout": map[string]any{}}), "sid", "08a5019c")
	logout = claimsWith(logout, "exp", time.Now().Add(time.Minute).Unix())
	keycloakAccess := claimsWith(claimsWith(access, "typ", "Bearer"), "nonce", "n-1") // Keycloak < 24
	keycloakID := claimsWith(claimsWith(access, "typ", "ID"), "nonce", "n-1")
	keycloakRefresh := claimsWith(access, "typ", "Refresh")
	cognitoID := claimsWith(access, "token_use", "id")
	cognitoAccess := claimsWith(access, "token_use", "access")
	for _, c := range []struct {
		name          string
		token         string
		strict, plain string // "" accepted, else the refusal's description
	}{
		{"at+jwt", rs("at+jwt", access), "", ""},
		{"AT+JWT", rs("AT+JWT", access), "", ""},
		{"application/at+jwt", rs("application/at+jwt", access), "", ""},
		{"Application/At+JWT", rs("Application/At+JWT", access), "", ""},
		{"JWT", rs("JWT", access), "The token is not an access token.", ""},
		{"jwt", rs("jwt", access), "The token is not an access token.", ""},
		{"application/jwt", rs("application/jwt", access), "The token is not an access token.", ""},
		{"no typ", rs(nil, access), "The token is not an access token.", ""},
		{"empty typ", rs("", access), "The token is not an access token.", "The token is not an access token."},
		{"typ a number", rs(1, access), "The token is not an access token.", "The token is not an access token."},
		{"typ a list", rs([]string{"at+jwt"}, access), "The token is not an access token.", "The token is not an access token."},
		{"other/at+jwt", rs("other/at+jwt", access), "The token is not an access token.", "The token is not an access token."},
		{"application/application/at+jwt", rs("application/application/at+jwt", access), "The token is not an access token.", "The token is not an access token."},
		{"at+jwt with parameters", rs("at+jwt; q=1", access), "The token is not an access token.", "The token is not an access token."},
		{"logout+jwt", rs("logout+jwt", logout), "The token is not an access token.", "The token is not an access token."},
		{"logout token typed JWT", rs("JWT", logout), "The token is not an access token.", "The token is not an access token."},
		{"logout token typed at+jwt", rs("at+jwt", logout), "The token is not an access token.", "The token is not an access token."},
		{"ID token typed JWT", rs("JWT", idToken), "The token is not an access token.", "The token is not an access token."},
		{"ID token without typ", rs(nil, idToken), "The token is not an access token.", "The token is not an access token."},
		{"ID token without at_hash", rs("JWT", idNoHash), "The token is not an access token.", "The token is not an access token."},
		{"ID token typed at+jwt", rs("at+jwt", idToken), "The token is not an access token.", "The token is not an access token."},
		{"id_token+jwt", rs("id_token+jwt", access), "The token is not an access token.", "The token is not an access token."},
		{"Keycloak access token", rs("JWT", keycloakAccess), "The token is not an access token.", ""},
		{"Keycloak ID token", rs("JWT", keycloakID), "The token is not an access token.", "The token is not an access token."},
		{"Keycloak refresh token", rs("JWT", keycloakRefresh), "The token is not an access token.", "The token is not an access token."},
		{"Cognito ID token", rs(nil, cognitoID), "The token is not an access token.", "The token is not an access token."},
		{"Cognito access token", rs(nil, cognitoAccess), "The token is not an access token.", ""},
	} {
		expect(t, strict, c.name+" (at+jwt only)", c.token, c.strict)
		expect(t, plain, c.name+" (AcceptPlainJWT)", c.token, c.plain)
	}

	// A wrong typ is refused before the key is looked up: unknown kids
	// under it make no fetch.
	before := is.fetchCount()
	for i := range 3 {
		tok := signTyp(t, jwt.SigningMethodRS256, "made-up-"+string(rune('a'+i)), "logout+jwt", k, logout)
		expect(t, strict, "logout token with an unknown kid", tok, "The token is not an access token.")
	}
	if n := is.fetchCount() - before; n != 0 {
		t.Errorf("wrong-typ tokens made %d fetches", n)
	}
}

// slowJWKS serves the issuer's key set after delay (or until the client
// goes); fetches counts the requests.
type slowJWKS struct {
	srv     *httptest.Server
	delay   atomic.Int64 // a time.Duration
	fetches atomic.Int32
}

func newSlowJWKS(t *testing.T, is *issuer) *slowJWKS {
	t.Helper()
	s := &slowJWKS{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fetches.Add(1)
		select {
		case <-time.After(time.Duration(s.delay.Load())):
		case <-r.Context().Done():
			return
		}
		resp, err := http.Get(is.srv.URL + "/jwks")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// A key set server that takes 10 s to answer holds up no request whose key
// is cached; the fetch runs once (single flight) in the background; a
// request whose kid is not cached waits for it at most MaxWait, then gets
// 503 with Retry-After; Close ends the fetch at once.
func TestSlowKeySet(t *testing.T) {
	is := newIssuer(t)
	k := rsaKey(t)
	is.publish(t, "k", k)
	js := newSlowJWKS(t, is)
	const maxWait = 300 * time.Millisecond
	keys := &oidc.KeySet{URL: js.srv.URL, MaxAge: time.Millisecond, RefetchInterval: time.Nanosecond, MaxWait: maxWait}
	t.Cleanup(func() { _ = keys.Close() }) // before the server's Close: cleanups run last first
	c := api(t, oidc.Authentication{Issuer: is.srv.URL, Audience: "books-api", Keys: keys})
	token := sign(t, jwt.SigningMethodRS256, "k", k, is.claims("books:read"))
	expect(t, c, "the first request, the server fast", token, "")

	js.delay.Store(int64(10 * time.Second))
	time.Sleep(5 * time.Millisecond) // the set is now older than MaxAge
	var wg sync.WaitGroup
	var slowest atomic.Int64
	for range 20 {
		wg.Go(func() {
			start := time.Now()
			r := c.Get("/books/", "Authorization: Bearer "+token)
			if r.Status != 200 {
				t.Errorf("a cached key while the set is fetched: %d %s", r.Status, r.Body)
			}
			d := int64(time.Since(start))
			for {
				old := slowest.Load()
				if d <= old || slowest.CompareAndSwap(old, d) {
					break
				}
			}
		})
	}
	unknown := sign(t, jwt.SigningMethodRS256, "k2", k, is.claims("books:read"))
	for range 5 {
		wg.Go(func() {
			start := time.Now()
			r := c.Get("/books/", "Authorization: Bearer "+unknown)
			d := time.Since(start)
			if r.Status != 503 || r.Header.Get("Retry-After") != "5" || r.Body != `{"detail":"`+"The token issuer's keys could not be fetched; try again later."+`"}` {
				t.Errorf("an unknown kid while the set is fetched: %d %s %v", r.Status, r.Body, r.Header)
			}
			if d < maxWait || d > maxWait+time.Second {
				t.Errorf("an unknown kid was answered after %v, want MaxWait (%v)", d, maxWait)
			}
		})
	}
	wg.Wait()
	if d := time.Duration(slowest.Load()); d > time.Second {
		t.Errorf("a request with a cached key took %v while the key set server was slow", d)
	}
	if n := js.fetches.Load(); n != 2 {
		t.Errorf("the key set was fetched %d times, want 2 (the first; one in the background)", n)
	}
	start := time.Now()
	_ = keys.Close()
	if d := time.Since(start); d > time.Second {
		t.Errorf("Close took %v with a fetch in flight", d)
	}
	expect(t, c, "a cached key after Close", token, "")

	// No set yet, the server slow: the first request waits the default
	// MaxWait and gets 503; the fetch goes on.
	cold := &oidc.KeySet{URL: js.srv.URL}
	t.Cleanup(func() { _ = cold.Close() })
	c = api(t, oidc.Authentication{Issuer: is.srv.URL, Audience: "books-api", Keys: cold})
	start = time.Now()
	if r := c.Get("/books/", "Authorization: Bearer "+token); r.Status != 503 || r.Header.Get("Retry-After") != "5" {
		t.Errorf("no set yet, the server slow: %d %s %v", r.Status, r.Body, r.Header)
	}
	if d := time.Since(start); d < 2*time.Second || d > 3*time.Second {
		t.Errorf("no set yet, the server slow: answered after %v, want the 2s a request waits for the key set", d)
	}
}

// A fetch in flight that ends in time answers the requests waiting for
// it, and the request that gave up does not cancel it for the others.
func TestKeyFetchJoined(t *testing.T) {
	is := newIssuer(t)
	k := rsaKey(t)
	is.publish(t, "k", k)
	js := newSlowJWKS(t, is)
	js.delay.Store(int64(200 * time.Millisecond))
	keys := &oidc.KeySet{URL: js.srv.URL}
	t.Cleanup(func() { _ = keys.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a request gone before the set was fetched
	if _, _, err := keys.Key(ctx, "k"); !errors.Is(err, oidc.ErrFetch) {
		t.Errorf("a request gone: %v, want ErrFetch", err)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if _, _, err := keys.Key(context.Background(), "k"); err != nil {
				t.Errorf("a waiting request: %v", err)
			}
		})
	}
	wg.Wait()
	if n := js.fetches.Load(); n != 1 {
		t.Errorf("fetched %d times, want 1", n)
	}
}

// FuzzAccessTokenChecks signs tokens with fuzzed typ, aud and claims, and
// checks that no token with a wrong typ or aud, or an ID token's or
// logout token's claims, is ever accepted, and that a right one always
// is, with and without AcceptPlainJWT; a scheme with no audience and no
// opt-out accepts nothing.
func FuzzAccessTokenChecks(f *testing.F) {
	is := newIssuer(f)
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	is.publish(f, "k", key)
	keys := &oidc.KeySet{URL: is.srv.URL + "/jwks"}
	f.Cleanup(func() { _ = keys.Close() })
	strict := oidc.Authentication{Issuer: is.srv.URL, Audience: "books-api", Keys: keys}
	plain := strict
	plain.AcceptPlainJWT = true
	anyAud := oidc.Authentication{Issuer: is.srv.URL, AcceptAnyAudience: true, Keys: keys}
	unset := oidc.Authentication{Issuer: is.srv.URL, Keys: keys}

	// flags: 1 typ absent, 2 aud a list (with "other"), 4 aud absent,
	// 8 events, 16 at_hash, 32 nonce, 64 the payload typ claim, 128
	// token_use.
	for _, s := range []struct {
		typ, aud, ptyp string
		flags          uint8
	}{
		{"at+jwt", "books-api", "", 0}, {"application/AT+JWT", "books-api", "", 2}, {"JWT", "books-api", "", 0},
		{"", "books-api", "", 1}, {"logout+jwt", "books-api", "", 8}, {"JWT", "books-api", "", 8},
		{"JWT", "books-api", "", 48}, {"JWT", "books-api", "Bearer", 96}, {"JWT", "books-api", "ID", 96},
		{"at+jwt", "films-api", "", 0}, {"at+jwt", "Books-api", "", 2}, {"at+jwt", "", "", 4},
		{"at+jwt", "books-api ", "", 0}, {"application/jwt", "books-api", "access", 128},
		{"at+jwt", "books-api", "id", 128}, {"at+jwt", "books-api", "", 32},
	} {
		f.Add(s.typ, s.aud, s.ptyp, s.flags)
	}
	f.Fuzz(func(t *testing.T, typ, aud, ptyp string, flags uint8) {
		claims := is.claims("books:read")
		claims["aud"] = aud
		if flags&2 != 0 {
			claims["aud"] = []string{"other", aud}
		}
		if flags&4 != 0 {
			delete(claims, "aud")
		}
		if flags&8 != 0 {
			claims["events"] = map[string]any{"http://schemas.openid.net/event/backchannel-logout": map[string]any{}}
		}
		if flags&16 != 0 {
			claims["at_hash"] = "77QmUPtjPfzWtF2AnpK9RQ"
		}
		if flags&32 != 0 {
			claims["nonce"] = "n-0S6"
		}
		if flags&64 != 0 {
			claims["typ"] = ptyp
		}
		if flags&128 != 0 {
			claims["token_use"] = ptyp
		}
		var header any = typ
		if flags&1 != 0 {
			header = nil
		}
		token := signTyp(t, jwt.SigningMethodEdDSA, "k", header, key, claims)

		// What RFC 9068 and this package's rules say, written apart
		// from the code under test.
		audOK := flags&4 == 0 && aud == "books-api"
		typAT := flags&1 == 0 && (strings.EqualFold(typ, "at+jwt") || strings.EqualFold(typ, "application/at+jwt"))
		typJWT := flags&1 != 0 || strings.EqualFold(typ, "jwt") || strings.EqualFold(typ, "application/jwt")
		otherKind := flags&(8|16) != 0 ||
			flags&128 != 0 && !strings.EqualFold(ptyp, "access") ||
			flags&64 != 0 && (strings.EqualFold(ptyp, "id") || strings.EqualFold(ptyp, "logout") || strings.EqualFold(ptyp, "refresh")) ||
			flags&32 != 0 && !(flags&64 != 0 && (strings.EqualFold(ptyp, "bearer") || strings.EqualFold(ptyp, "dpop")))
		ordinary := flags&(64|128) == 0 // no payload typ or token_use to judge

		for _, c := range []struct {
			name         string
			a            oidc.Authentication
			typOK, audOK bool
		}{
			{"strict", strict, typAT, audOK},
			{"AcceptPlainJWT", plain, typAT || typJWT, audOK},
			{"AcceptAnyAudience", anyAud, typAT, true},
			{"no audience, no opt-out", unset, false, false},
		} {
			tok, err := c.a.Verify(context.Background(), token)
			if err == nil && (!c.typOK || !c.audOK || otherKind) {
				t.Fatalf("%s accepted typ %q (absent %v) aud %q claims %v", c.name, typ, flags&1 != 0, aud, tok.Claims)
			}
			if err == nil {
				continue
			}
			var e *exceptions.APIException
			if !errors.As(err, &e) || e.Status != http.StatusUnauthorized {
				t.Fatalf("%s: %v, want a 401", c.name, err)
			}
			if c.typOK && c.audOK && !otherKind && ordinary {
				t.Fatalf("%s refused typ %q aud %q flags %d: %v", c.name, typ, aud, flags, err)
			}
		}
	})
}
