// Package oidc is an OAuth 2.0 resource server for OpenID Connect issuers:
// Authentication reads `Authorization: Bearer ACCESS_TOKEN` where the
// token is a JWT (RFC 9068) that the issuer signed with one of the keys it
// publishes (its JWKS, fetched and cached by KeySet, fetched again in the
// background when a token names a key it does not hold, so that key
// rotation is followed), and checks its typ (RFC 9068's at+jwt), iss, aud
// (required unless AcceptAnyAudience says otherwise), exp and nbf;
// HasScope lets through the tokens granted a scope. Failures are answered as RFC 6750 says: 401 with
// `WWW-Authenticate: Bearer error="invalid_token", error_description=...`,
// 403 with error="insufficient_scope". golang-jwt/jwt/v5 verifies the
// signatures.
package oidc

import (
	"context"
	"crypto"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/internal/pycompat"
)

// DefaultAlgorithms are the signature algorithms accepted unless
// Authentication.Algorithms says otherwise: the asymmetric ones of JWA
// (never HMAC, whose key a resource server would share with every other).
var DefaultAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// Authentication is the resource server's scheme: bearer JWT access
// tokens of one issuer. request.User is then the token's user (User, or a
// TokenUser) and request.Auth the *Token. Requests without a Bearer
// Authorization header are not attempted; denied anonymous requests get
// 401 with `WWW-Authenticate: Bearer realm="api"`. Use the value New
// returns, or set Issuer, Audience (or AcceptAnyAudience) and Keys and
// call Check at setup.
type Authentication struct {
	// Issuer is the iss every token must carry, exactly.
	Issuer string
	// Audience is this service's identifier at the issuer: it must be one
	// of the token's aud (RFC 9068 §4), so that the tokens the issuer
	// gives its other clients and services are refused. It is required
	// unless AcceptAnyAudience is set; a scheme with neither refuses
	// every token (and Check reports it).
	Audience string
	// AcceptAnyAudience, with no Audience, accepts the issuer's tokens
	// whatever their aud (or none): every token the issuer signs for any
	// of its clients is then good here. Only for an issuer that serves
	// this service alone, or whose aud cannot be configured.
	AcceptAnyAudience bool
	// AcceptPlainJWT also accepts the tokens whose JOSE header typ is
	// "JWT" (or "application/jwt") or absent, as many issuers type their
	// access tokens (Keycloak, Auth0, Okta, Entra ID) instead of RFC 9068's
	// "at+jwt", which alone is accepted otherwise. A token that carries an
	// ID token's claims (at_hash, c_hash, s_hash, nonce, Keycloak's typ
	// "ID", Cognito's token_use "id") or a logout token's (events) is
	// refused all the same, as is any other typ (logout+jwt, ...).
	AcceptPlainJWT bool
	// Keys is the issuer's key set.
	Keys *KeySet
	// Algorithms are the accepted signature algorithms; nil is
	// DefaultAlgorithms.
	Algorithms []string
	// Leeway is the clock skew allowed when checking exp and nbf.
	Leeway time.Duration
	// Realm is the realm of the challenge; "" is "api".
	Realm string
	// User maps a valid token to the request's user, e.g. a local user
	// looked up by the token's subject; a nil user and a nil error refuse
	// the token. nil makes every valid token a TokenUser.
	User func(ctx context.Context, t *Token) (request.User, error)
}

// Check reports what makes the scheme unusable: no Issuer, neither an
// Audience nor AcceptAnyAudience (or both), no key set URL, an unknown or
// symmetric algorithm.
func (a Authentication) Check() error {
	if a.Issuer == "" {
		return errors.New("oidc: Authentication needs the Issuer")
	}
	if a.Audience == "" && !a.AcceptAnyAudience {
		return errors.New("oidc: Authentication needs the Audience (this service's aud at the issuer), " +
			"or AcceptAnyAudience to accept the tokens the issuer gives any of its clients")
	}
	if a.Audience != "" && a.AcceptAnyAudience {
		return errors.New("oidc: Authentication has both an Audience and AcceptAnyAudience; set one")
	}
	if a.Keys == nil || a.Keys.URL == "" {
		return errors.New("oidc: Authentication needs Keys with the issuer's JWKS URL")
	}
	for _, alg := range a.Algorithms {
		if !slices.Contains(DefaultAlgorithms, alg) {
			return fmt.Errorf("oidc: algorithm %q is not an asymmetric JWS algorithm (one of %v)", alg, DefaultAlgorithms)
		}
	}
	return nil
}

// New returns the scheme of the issuer whose key set is at jwksURL
// (Discover finds it), with the audience this service is. The audience is
// required: "" is an error (to accept any audience, set
// Authentication.AcceptAnyAudience and call Check).
func New(issuer, audience, jwksURL string) (Authentication, error) {
	a := Authentication{Issuer: issuer, Audience: audience, Keys: &KeySet{URL: jwksURL}}
	return a, a.Check()
}

// Claims are the claims of an access token this package reads (RFC 9068):
// the registered ones, the scopes and the client.
type Claims struct {
	jwt.RegisteredClaims
	// Scope is the space-separated scopes granted (RFC 9068's "scope").
	Scope string `json:"scope,omitempty"`
	// Scp is the scopes as some issuers write them: a list, or a
	// space-separated string.
	Scp jwt.ClaimStrings `json:"scp,omitempty"`
	// ClientID is the client the token was issued to.
	ClientID string `json:"client_id,omitempty"`
}

// Token is a verified access token.
type Token struct {
	// Raw is the token as sent; decode it again for other claims.
	Raw string
	// Claims are its claims.
	Claims Claims
	// Scopes are its scopes, from "scope" or else "scp".
	Scopes []string
}

// HasScopes reports whether the token was granted every scope given.
func (t *Token) HasScopes(scopes ...string) bool {
	for _, s := range scopes {
		if !slices.Contains(t.Scopes, s) {
			return false
		}
	}
	return true
}

// TokenUser is the user of a token when Authentication.User is nil: the
// token's subject, active, never staff.
type TokenUser struct {
	// Subject is the token's sub.
	Subject string
}

// GetUsername returns the subject.
func (u TokenUser) GetUsername() string { return u.Subject }

// IsAuthenticated returns true.
func (TokenUser) IsAuthenticated() bool { return true }

// IsActive returns true.
func (TokenUser) IsActive() bool { return true }

// IsStaff returns false.
func (TokenUser) IsStaff() bool { return false }

// Descriptions of the refused tokens (error_description and detail).
const (
	msgMalformed       = "The access token is malformed."
	msgAlgorithm       = "The access token's algorithm is not accepted."
	msgUnknownKey      = "The access token is signed with a key the issuer does not publish."
	msgSignature       = "The access token's signature is invalid."
	msgExpired         = "The access token expired."
	msgNotYetValid     = "The access token is not valid yet."
	msgIssuer          = "The access token is not from the trusted issuer."
	msgAudience        = "The access token is not meant for this service."
	msgClaims          = "The access token's claims are invalid."
	msgMissingClaim    = "The access token lacks a claim it must have (exp, iss, or aud)."
	msgUserRefused     = "The access token's user is not allowed."
	msgHeader          = "The Authorization header must be \"Bearer\" and one token."
	msgKeysUnavailable = "The token issuer's keys could not be fetched; try again later."
	msgNotAccessToken  = "The token is not an access token."
)

// invalid is a refused token: 401 {"detail": description}, with RFC
// 6750's challenge, which AuthenticateHeader gives.
func (a Authentication) invalid(description string) *exceptions.APIException {
	e := exceptions.AuthenticationFailed(description)
	e.Header = http.Header{"Www-Authenticate": {a.challenge() + `, error="invalid_token", error_description=` + strconv.Quote(description)}}
	return e
}

func (a Authentication) challenge() string {
	realm := a.Realm
	if realm == "" {
		realm = "api"
	}
	return `Bearer realm=` + strconv.Quote(realm)
}

// Authenticate verifies the bearer token.
func (a Authentication) Authenticate(r *request.Request) (request.User, any, error) {
	parts := pycompat.SplitBytes(authentication.HeaderValue(r.Header, "Authorization"))
	if len(parts) == 0 || !strings.EqualFold(parts[0], "Bearer") {
		return nil, nil, nil
	}
	if len(parts) != 2 {
		e := exceptions.ParseError(msgHeader)
		e.Header = http.Header{"Www-Authenticate": {a.challenge() + `, error="invalid_request", error_description=` + strconv.Quote(msgHeader)}}
		return nil, nil, e
	}
	t, err := a.Verify(r.Context(), parts[1])
	if err != nil {
		return nil, nil, err
	}
	if a.User == nil {
		return TokenUser{Subject: t.Claims.Subject}, t, nil
	}
	u, err := a.User(r.Context(), t)
	if err != nil {
		return nil, nil, err
	}
	if u == nil {
		return nil, nil, a.invalid(msgUserRefused)
	}
	return u, t, nil
}

// Verify checks a token: its algorithm, its typ (an access token's:
// at+jwt, or with AcceptPlainJWT JWT or none), its key (from the issuer's
// set), its signature, exp (required), nbf, iss, aud (required, unless
// AcceptAnyAudience), and that it carries no ID token's or logout token's
// claims. A refused token is a 401 *exceptions.APIException whose detail
// says why (a scheme with neither Audience nor AcceptAnyAudience refuses
// every token); a key set that cannot be fetched in time is 503.
func (a Authentication) Verify(ctx context.Context, raw string) (*Token, error) {
	if a.Audience == "" && !a.AcceptAnyAudience {
		return nil, a.invalid(msgAudience) // misconfigured: fail closed
	}
	algs := a.Algorithms
	if algs == nil {
		algs = DefaultAlgorithms
	}
	opts := []jwt.ParserOption{jwt.WithLeeway(a.Leeway), jwt.WithExpirationRequired(), jwt.WithIssuer(a.Issuer)}
	if a.Audience != "" {
		opts = append(opts, jwt.WithAudience(a.Audience))
	}
	var keyErr error
	t := &Token{Raw: raw}
	_, err := jwt.NewParser(opts...).ParseWithClaims(raw, &t.Claims, func(tok *jwt.Token) (any, error) {
		if !slices.Contains(algs, tok.Method.Alg()) {
			keyErr = errAlgorithm
			return nil, keyErr
		}
		if !a.accessTokenType(tok.Header) {
			keyErr = errType // before the key: a wrong typ fetches nothing
			return nil, keyErr
		}
		kid, _ := tok.Header["kid"].(string)
		var key crypto.PublicKey
		var alg string
		key, alg, keyErr = a.Keys.Key(ctx, kid)
		if keyErr == nil && alg != "" && alg != tok.Method.Alg() {
			keyErr = errAlgorithm
		}
		return key, keyErr
	})
	switch {
	case err == nil:
	case errors.Is(keyErr, errPending):
		return nil, exceptions.ServiceUnavailable(pendingRetry, msgKeysUnavailable)
	case errors.Is(keyErr, ErrFetch):
		return nil, exceptions.ServiceUnavailable(time.Minute, msgKeysUnavailable)
	case errors.Is(keyErr, errType):
		return nil, a.invalid(msgNotAccessToken)
	case errors.Is(keyErr, ErrUnknownKey):
		return nil, a.invalid(msgUnknownKey)
	case errors.Is(keyErr, errAlgorithm), errors.Is(err, jwt.ErrTokenUnverifiable):
		return nil, a.invalid(msgAlgorithm)
	case errors.Is(err, jwt.ErrTokenMalformed):
		return nil, a.invalid(msgMalformed)
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return nil, a.invalid(msgSignature)
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return nil, a.invalid(msgMissingClaim)
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, a.invalid(msgExpired)
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return nil, a.invalid(msgNotYetValid)
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return nil, a.invalid(msgIssuer)
	case errors.Is(err, jwt.ErrTokenInvalidAudience):
		return nil, a.invalid(msgAudience)
	default:
		return nil, a.invalid(msgClaims)
	}
	if otherTokenKind(raw) {
		return nil, a.invalid(msgNotAccessToken)
	}
	if t.Claims.Scope != "" {
		t.Scopes = strings.Fields(t.Claims.Scope)
	} else {
		for _, s := range t.Claims.Scp {
			t.Scopes = append(t.Scopes, strings.Fields(s)...)
		}
	}
	return t, nil
}

// errAlgorithm is a token whose alg is not accepted, or not its key's.
var errAlgorithm = errors.New("oidc: the token's algorithm is not accepted")

// errType is a token whose typ is not an access token's.
var errType = errors.New("oidc: the token's typ is not an access token's")

// pendingRetry is the Retry-After of a request that waited KeySet.MaxWait
// for a fetch still in flight.
const pendingRetry = 5 * time.Second

// accessTokenType reports whether the JOSE header's typ is an access
// token's: "at+jwt" (RFC 9068 §4), or with AcceptPlainJWT "JWT" or none.
// Media types compare case-insensitively and "application/" may be left
// out (RFC 7515 §4.1.9).
func (a Authentication) accessTokenType(header map[string]any) bool {
	v, ok := header["typ"]
	if !ok {
		return a.AcceptPlainJWT
	}
	typ, ok := v.(string)
	if !ok {
		return false
	}
	typ = strings.ToLower(typ)
	if rest, ok := strings.CutPrefix(typ, "application/"); ok && !strings.Contains(rest, "/") {
		typ = rest
	}
	return typ == "at+jwt" || a.AcceptPlainJWT && typ == "jwt"
}

// otherTokenKind reports whether a verified token's claims are those of
// another kind of token than an access token: a logout token's events
// (OpenID Connect Back-Channel Logout 1.0 §2.4), an ID token's at_hash,
// c_hash or s_hash, or its nonce (unless Keycloak's typ claim says
// "Bearer" or "DPoP": Keycloak before 24 copied the nonce into its access
// tokens), Keycloak's typ claim of its other tokens, Cognito's token_use
// of its ID tokens. Claims that do not read are another token's too.
func otherTokenKind(raw string) bool {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return true
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return true
	}
	var c map[string]json.RawMessage
	if json.Unmarshal(payload, &c) != nil {
		return true
	}
	for _, name := range []string{"events", "at_hash", "c_hash", "s_hash"} {
		if _, ok := c[name]; ok {
			return true
		}
	}
	var typ, use string
	if v, ok := c["typ"]; ok && json.Unmarshal(v, &typ) != nil {
		return true
	}
	if v, ok := c["token_use"]; ok && (json.Unmarshal(v, &use) != nil || !strings.EqualFold(use, "access")) {
		return true
	}
	switch strings.ToLower(typ) {
	case "id", "refresh", "offline", "logout", "logout+jwt", "serialized-id":
		return true
	}
	if _, ok := c["nonce"]; ok && !strings.EqualFold(typ, "Bearer") && !strings.EqualFold(typ, "DPoP") {
		return true
	}
	return false
}

// AuthenticateHeader is RFC 6750's challenge: `Bearer realm="api"`, with
// error="invalid_token" and the error_description when the request's
// token was refused.
func (a Authentication) AuthenticateHeader(r *request.Request) string {
	var e *exceptions.APIException
	if err := r.Authenticate(); errors.As(err, &e) && r.SuccessfulAuthenticator() == nil {
		if h := e.Header.Get("WWW-Authenticate"); strings.HasPrefix(h, a.challenge()+", error=") {
			return h
		}
	}
	return a.challenge()
}

// SecurityScheme documents the scheme in the OpenAPI document: HTTP bearer
// tokens of the issuer (schemas.SecurityDescriber).
func (a Authentication) SecurityScheme() (string, *schemas.SecurityScheme) {
	return "oidcBearer", &schemas.SecurityScheme{Type: "http", Scheme: "bearer",
		Description: "An access token (JWT) issued by " + a.Issuer + "."}
}
