package oidc_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/go-drf/drf/contrib/oidc"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// issuer is a local OpenID Connect issuer: keys it generates, its
// discovery document and JWKS served on 127.0.0.1, and tokens it signs.
type issuer struct {
	srv *httptest.Server

	mu      sync.Mutex
	keys    map[string]crypto.Signer // kid → private key, as published
	down    bool
	fetches int
}

func newIssuer(t testing.TB) *issuer {
	t.Helper()
	is := &issuer{keys: map[string]crypto.Signer{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"issuer": is.srv.URL, "jwks_uri": is.srv.URL + "/jwks"})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		is.mu.Lock()
		defer is.mu.Unlock()
		is.fetches++
		if is.down {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		var keys []map[string]string
		for kid, k := range is.keys {
			keys = append(keys, publicJWK(kid, k.Public()))
		}
		// A key for encryption, and one of an unknown type: skipped.
		keys = append(keys, map[string]string{"kty": "RSA", "use": "enc", "kid": "enc", "n": "AQAB", "e": "AQAB"},
			map[string]string{"kty": "oct", "kid": "secret", "k": "c2VjcmV0"})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": keys})
	})
	is.srv = httptest.NewServer(mux)
	t.Cleanup(is.srv.Close)
	return is
}

// publicJWK is the JWK of a public key.
func publicJWK(kid string, pub crypto.PublicKey) map[string]string {
	b64 := base64.RawURLEncoding.EncodeToString
	switch k := pub.(type) {
	case *rsa.PublicKey:
		return map[string]string{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid, "n": b64(k.N.Bytes()), "e": b64(big.NewInt(int64(k.E)).Bytes())}
	case *ecdsa.PublicKey:
		raw, _ := k.Bytes()
		return map[string]string{"kty": "EC", "crv": "P-256", "kid": kid, "x": b64(raw[1:33]), "y": b64(raw[33:])}
	case ed25519.PublicKey:
		return map[string]string{"kty": "OKP", "crv": "Ed25519", "kid": kid, "x": b64(k)}
	}
	panic("unknown key type")
}

// publish adds a new key under kid; rotate replaces every key by it.
func (is *issuer) publish(t testing.TB, kid string, k crypto.Signer) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys[kid] = k
}

func (is *issuer) rotate(t *testing.T, kid string, k crypto.Signer) {
	is.mu.Lock()
	is.keys = map[string]crypto.Signer{}
	is.mu.Unlock()
	is.publish(t, kid, k)
}

func (is *issuer) fetchCount() int {
	is.mu.Lock()
	defer is.mu.Unlock()
	return is.fetches
}

func rsaKey(t *testing.T) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sign makes an access token (typ at+jwt) with the claims, signed with
// the key under kid.
func sign(t testing.TB, m jwt.SigningMethod, kid string, key any, claims jwt.MapClaims) string {
	t.Helper()
	return signTyp(t, m, kid, "at+jwt", key, claims)
}

// signTyp is sign with the JOSE header typ, none when typ is nil.
func signTyp(t testing.TB, m jwt.SigningMethod, kid string, typ any, key any, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(m, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	if typ == nil {
		delete(tok.Header, "typ")
	} else {
		tok.Header["typ"] = typ
	}
	raw, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// claims are a valid token's for the audience "books-api".
func (is *issuer) claims(scope string) jwt.MapClaims {
	now := time.Now()
	return jwt.MapClaims{"iss": is.srv.URL, "sub": "user-42", "aud": "books-api", "exp": now.Add(time.Minute).Unix(),
		"iat": now.Unix(), "nbf": now.Add(-time.Second).Unix(), "scope": scope, "client_id": "cli"}
}

// api serves /books/, which needs books:read, with the issuer's scheme.
func api(t *testing.T, a oidc.Authentication) *apitest.Client {
	t.Helper()
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/books/", framework.View{
		Name:           "Books",
		Authentication: framework.Authenticators(a),
		Permissions:    framework.Permissions(oidc.HasScope("books:read")),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			tok := r.Auth().(*oidc.Token)
			return framework.OK(map[string]any{"user": r.User().GetUsername(), "scopes": tok.Scopes, "client": tok.Claims.ClientID}), nil
		},
	})
	return apitest.New(t, api)
}

// newAuth is the scheme of the issuer for "books-api", its key set at the
// URL discovery finds.
func newAuth(t *testing.T, is *issuer) oidc.Authentication {
	t.Helper()
	jwks, err := oidc.Discover(context.Background(), nil, is.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	a, err := oidc.New(is.srv.URL, "books-api", jwks)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// claimsWith is c with the claim name set to v, or removed when v is nil.
func claimsWith(c jwt.MapClaims, name string, v any) jwt.MapClaims {
	out := jwt.MapClaims{}
	for k, val := range c {
		out[k] = val
	}
	if v == nil {
		delete(out, name)
	} else {
		out[name] = v
	}
	return out
}

// refused is the answer to a refused token: 401, the description as the
// detail and in RFC 6750's challenge.
func refused(desc string) (int, string, string) {
	return 401, `{"detail":"` + desc + `"}`, `Bearer realm="api", error="invalid_token", error_description="` + desc + `"`
}

// Tokens of the issuer's keys pass; every other token is refused with the
// reason in the detail and in the challenge.
func TestTokensOfTheIssuer(t *testing.T) {
	is := newIssuer(t)
	k1 := rsaKey(t)
	ec := must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	_, ed := must2(ed25519.GenerateKey(rand.Reader))
	is.publish(t, "k1", k1)
	is.publish(t, "ec", ec)
	is.publish(t, "ed", ed)
	c := api(t, newAuth(t, is))

	ok := `{"client":"cli","scopes":["books:read","books:write"],"user":"user-42"}`
	valid := is.claims("books:read books:write")
	now := time.Now()
	tampered := sign(t, jwt.SigningMethodRS256, "k1", k1, valid)
	tampered = tampered[:len(tampered)-6] + "AAAAAA"
	for _, c2 := range []struct {
		name, token string
		status      int
		body        string
		challenge   string
	}{
		{"RS256", sign(t, jwt.SigningMethodRS256, "k1", k1, valid), 200, ok, ""},
		{"ES256", sign(t, jwt.SigningMethodES256, "ec", ec, valid), 200, ok, ""},
		{"EdDSA", sign(t, jwt.SigningMethodEdDSA, "ed", ed, valid), 200, ok, ""},
		{"scp list", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(claimsWith(valid, "scope", nil), "scp", []string{"books:read", "books:write"})), 200, ok, ""},
		{"aud list", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "aud", []string{"other", "books-api"})), 200, ok, ""},
		{"expired", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "exp", now.Add(-time.Minute).Unix())), 0, "The access token expired.", ""},
		{"no exp", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "exp", nil)), 0, "The access token lacks a claim it must have (exp, iss, or aud).", ""},
		{"not yet valid", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "nbf", now.Add(time.Hour).Unix())), 0, "The access token is not valid yet.", ""},
		{"other issuer", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "iss", "https://evil.example")), 0, "The access token is not from the trusted issuer.", ""},
		{"no issuer", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "iss", nil)), 0, "The access token lacks a claim it must have (exp, iss, or aud).", ""},
		{"no audience", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "aud", nil)), 0, "The access token lacks a claim it must have (exp, iss, or aud).", ""},
		{"other audience", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "aud", "films-api")), 0, "The access token is not meant for this service.", ""},
		{"tampered", tampered, 0, "The access token's signature is invalid.", ""},
		{"another key under k1", sign(t, jwt.SigningMethodRS256, "k1", rsaKey(t), valid), 0, "The access token's signature is invalid.", ""},
		{"unknown kid", sign(t, jwt.SigningMethodRS256, "k9", k1, valid), 0, "The access token is signed with a key the issuer does not publish.", ""},
		{"no kid, several keys", sign(t, jwt.SigningMethodRS256, "", k1, valid), 0, "The access token is signed with a key the issuer does not publish.", ""},
		{"HS256 with the public key", sign(t, jwt.SigningMethodHS256, "k1", []byte("secret"), valid), 0, "The access token's algorithm is not accepted.", ""},
		{"alg none", sign(t, jwt.SigningMethodNone, "k1", jwt.UnsafeAllowNoneSignatureType, valid), 0, "The access token's algorithm is not accepted.", ""},
		{"RS512 with an RS256 key", sign(t, jwt.SigningMethodRS512, "k1", k1, valid), 0, "The access token's algorithm is not accepted.", ""},
		{"ES256 under an RSA kid", sign(t, jwt.SigningMethodES256, "k1", ec, valid), 0, "The access token's algorithm is not accepted.", ""},
		{"not a JWT", "abc", 0, "The access token is malformed.", ""},
		{"exp a string", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "exp", "soon")), 0, "The access token is malformed.", ""},
		{"no scope", sign(t, jwt.SigningMethodRS256, "k1", k1, claimsWith(valid, "scope", "books:write")), 403,
			`{"detail":"` + "The access token does not grant the scope this action needs." + `"}`, `Bearer error="insufficient_scope", scope="books:read"`},
	} {
		status, body, challenge := c2.status, c2.body, c2.challenge
		if status == 0 {
			status, body, challenge = refused(c2.body)
		}
		r := c.Get("/books/", "Authorization: Bearer "+c2.token)
		if r.Status != status || r.Body != body || r.Header.Get("WWW-Authenticate") != challenge {
			t.Errorf("%s: %d %s %q\nwant %d %s %q", c2.name, r.Status, r.Body, r.Header.Get("WWW-Authenticate"), status, body, challenge)
		}
	}
	for _, c2 := range []struct {
		name, header string
		status       int
		body         string
		challenge    string
	}{
		{"anonymous", "", 401, `{"detail":"Authentication credentials were not provided."}`, `Bearer realm="api"`},
		{"another scheme", "Authorization: Basic YTpi", 401, `{"detail":"Authentication credentials were not provided."}`, `Bearer realm="api"`},
		{"bearer in lower case", "Authorization: bearer abc", 401, `{"detail":"` + "The access token is malformed." + `"}`,
			`Bearer realm="api", error="invalid_token", error_description="` + "The access token is malformed." + `"`},
		{"three words", "Authorization: Bearer a b", 400, `{"detail":"The Authorization header must be \"Bearer\" and one token."}`,
			`Bearer realm="api", error="invalid_request", error_description="The Authorization header must be \"Bearer\" and one token."`},
	} {
		var h []string
		if c2.header != "" {
			h = append(h, c2.header)
		}
		r := c.Get("/books/", h...)
		if r.Status != c2.status || r.Body != c2.body || r.Header.Get("WWW-Authenticate") != c2.challenge {
			t.Errorf("%s: %d %s %q\nwant %d %s %q", c2.name, r.Status, r.Body, r.Header.Get("WWW-Authenticate"), c2.status, c2.body, c2.challenge)
		}
	}
	if n := is.fetchCount(); n != 1 {
		// Discovery's key set fetched once: the unknown kids came within
		// the refetch interval (a minute), and asked the issuer nothing.
		t.Errorf("the key set was fetched %d times, want 1", n)
	}
}

// The issuer rotates its key mid-test: a token of the new key makes the
// key set be fetched again and passes; the old key's tokens are then
// refused. With a long refetch interval, the new kid is not fetched for.
func TestKeyRotation(t *testing.T) {
	is := newIssuer(t)
	old, next := rsaKey(t), rsaKey(t)
	is.publish(t, "2024", old)
	a := newAuth(t, is)
	a.Keys.RefetchInterval = time.Nanosecond
	c := api(t, a)
	oldToken := sign(t, jwt.SigningMethodRS256, "2024", old, is.claims("books:read"))
	if r := c.Get("/books/", "Authorization: Bearer "+oldToken); r.Status != 200 {
		t.Fatalf("before the rotation: %d %s", r.Status, r.Body)
	}
	is.rotate(t, "2025", next)
	newToken := sign(t, jwt.SigningMethodRS256, "2025", next, is.claims("books:read"))
	if r := c.Get("/books/", "Authorization: Bearer "+newToken); r.Status != 200 {
		t.Errorf("the new key's token: %d %s", r.Status, r.Body)
	}
	if n := is.fetchCount(); n != 2 {
		t.Errorf("fetched %d times, want 2 (the first, and the new kid's)", n)
	}
	if r := c.Get("/books/", "Authorization: Bearer "+oldToken); r.Status != 401 || r.Body != `{"detail":"`+"The access token is signed with a key the issuer does not publish."+`"}` {
		t.Errorf("the old key's token after the rotation: %d %s", r.Status, r.Body)
	}

	// A key set that may be fetched again only in an hour does not see
	// the next rotation; the kid stays unknown, and the issuer is not
	// asked for each token.
	slow := newAuth(t, is)
	slow.Keys.RefetchInterval = time.Hour
	c = api(t, slow)
	if r := c.Get("/books/", "Authorization: Bearer "+newToken); r.Status != 200 {
		t.Fatalf("before the rotation: %d %s", r.Status, r.Body)
	}
	before := is.fetchCount()
	last := rsaKey(t)
	is.rotate(t, "2026", last)
	lastToken := sign(t, jwt.SigningMethodRS256, "2026", last, is.claims("books:read"))
	for range 3 {
		if r := c.Get("/books/", "Authorization: Bearer "+lastToken); r.Status != 401 || r.Body != `{"detail":"`+"The access token is signed with a key the issuer does not publish."+`"}` {
			t.Errorf("within the refetch interval: %d %s", r.Status, r.Body)
		}
	}
	if n := is.fetchCount() - before; n != 0 {
		t.Errorf("fetched %d times within the refetch interval", n)
	}
}

// An issuer whose key set cannot be fetched: 503 with Retry-After, never
// a 500; keys fetched earlier still verify.
func TestIssuerDown(t *testing.T) {
	is := newIssuer(t)
	k := rsaKey(t)
	is.publish(t, "k", k)
	a := newAuth(t, is)
	a.Keys.RefetchInterval = time.Nanosecond
	c := api(t, a)
	token := sign(t, jwt.SigningMethodRS256, "k", k, is.claims("books:read"))
	if r := c.Get("/books/", "Authorization: Bearer "+token); r.Status != 200 {
		t.Fatalf("up: %d %s", r.Status, r.Body)
	}
	is.mu.Lock()
	is.down = true
	is.mu.Unlock()
	if r := c.Get("/books/", "Authorization: Bearer "+token); r.Status != 200 {
		t.Errorf("a known key while the issuer is down: %d %s", r.Status, r.Body)
	}
	unknown := sign(t, jwt.SigningMethodRS256, "k2", k, is.claims("books:read"))
	if r := c.Get("/books/", "Authorization: Bearer "+unknown); r.Status != 503 || r.Header.Get("Retry-After") != "60" ||
		r.Body != `{"detail":"`+"The token issuer's keys could not be fetched; try again later."+`"}` {
		t.Errorf("an unknown key while the issuer is down: %d %s %v", r.Status, r.Body, r.Header)
	}
	fresh := newAuth(t, is) // discovery still answers; the key set does not
	fresh.Keys.RefetchInterval = time.Hour
	c = api(t, fresh)
	for range 2 {
		if r := c.Get("/books/", "Authorization: Bearer "+token); r.Status != 503 {
			t.Errorf("no key set yet: %d %s", r.Status, r.Body)
		}
	}
}

// The User hook maps tokens to the service's users; nil refuses the token.
func TestUserHook(t *testing.T) {
	is := newIssuer(t)
	k := rsaKey(t)
	is.publish(t, "k", k)
	a := newAuth(t, is)
	a.User = func(_ context.Context, tok *oidc.Token) (request.User, error) {
		if tok.Claims.Subject == "user-42" {
			return oidc.TokenUser{Subject: "alice"}, nil
		}
		return nil, nil
	}
	c := api(t, a)
	if r := c.Get("/books/", "Authorization: Bearer "+sign(t, jwt.SigningMethodRS256, "k", k, is.claims("books:read"))); r.Status != 200 || !strings.Contains(r.Body, `"user":"alice"`) {
		t.Errorf("mapped: %d %s", r.Status, r.Body)
	}
	stranger := claimsWith(is.claims("books:read"), "sub", "user-7")
	status, body, challenge := refused("The access token's user is not allowed.")
	if r := c.Get("/books/", "Authorization: Bearer "+sign(t, jwt.SigningMethodRS256, "k", k, stranger)); r.Status != status || r.Body != body || r.Header.Get("WWW-Authenticate") != challenge {
		t.Errorf("refused: %d %s %q", r.Status, r.Body, r.Header.Get("WWW-Authenticate"))
	}
}

// Setup refuses what cannot work; discovery checks the issuer it names.
func TestMisconfiguration(t *testing.T) {
	for _, c := range []struct {
		a    oidc.Authentication
		want string
	}{
		{oidc.Authentication{Keys: &oidc.KeySet{URL: "http://127.0.0.1/jwks"}}, "needs the Issuer"},
		{oidc.Authentication{Issuer: "https://id.example", Audience: "books-api"}, "needs Keys"},
		{oidc.Authentication{Issuer: "https://id.example", Audience: "books-api", Keys: &oidc.KeySet{URL: "http://127.0.0.1/jwks"}, Algorithms: []string{"HS256"}}, `algorithm "HS256"`},
		{oidc.Authentication{Issuer: "https://id.example", Keys: &oidc.KeySet{URL: "http://127.0.0.1/jwks"}}, "needs the Audience"},
		{oidc.Authentication{Issuer: "https://id.example", Audience: "books-api", AcceptAnyAudience: true, Keys: &oidc.KeySet{URL: "http://127.0.0.1/jwks"}}, "both an Audience and AcceptAnyAudience"},
	} {
		if err := c.a.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.a, err, c.want)
		}
	}
	is := newIssuer(t)
	if _, err := oidc.Discover(context.Background(), nil, is.srv.URL+"/other"); err == nil {
		t.Error("discovery of an issuer the server does not serve")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}
