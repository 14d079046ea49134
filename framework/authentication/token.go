package authentication

import (
	"unicode/utf8"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// Token is DRF's TokenAuthentication: "Authorization: Token <key>", the key
// looked up in Tokens; request.Auth is then the token record. Denied
// anonymous requests get 401 with `WWW-Authenticate: Token` (the keyword).
// Serve it over HTTPS only.
type Token struct {
	// Tokens finds tokens by key (contrib/authtoken's *Tokens).
	Tokens TokenStore
	// Keyword is the header's first word, matched in any case; "" gives
	// "Token". Set "Bearer" to accept "Authorization: Bearer <key>".
	Keyword string
}

// Failure messages of Token, in DRF's wording.
const (
	msgTokenNoCredentials = "Invalid token header. No credentials provided."
	msgTokenSpaces        = "Invalid token header. Token string should not contain spaces."
	msgTokenInvalidChars  = "Invalid token header. Token string should not contain invalid characters."
	msgInvalidToken       = "Invalid token."
)

func (t Token) keyword() string {
	if t.Keyword == "" {
		return "Token"
	}
	return t.Keyword
}

// CheckAuthenticator refuses, at registration, a Token without Tokens,
// and runs the store's own check (request.AuthenticatorChecker:
// contrib's token stores install their model on their database).
func (t Token) CheckAuthenticator() error {
	return checkStore(t.Tokens, "Tokens", "the store that finds tokens by key")
}

// Authenticate does not attempt unless the header's first word is the
// keyword; then the key must name a token of an active user.
func (t Token) Authenticate(r *request.Request) (request.User, any, error) {
	auth := authorization(r)
	if auth.n == 0 || !asciiEqualFold(auth.words[0], t.keyword()) {
		return nil, nil, nil
	}
	switch {
	case auth.n == 1:
		return nil, nil, exceptions.AuthenticationFailed(msgTokenNoCredentials)
	case auth.n > 2:
		return nil, nil, exceptions.AuthenticationFailed(msgTokenSpaces)
	case !utf8.ValidString(auth.words[1]):
		return nil, nil, exceptions.AuthenticationFailed(msgTokenInvalidChars)
	}
	u, token, err := t.Tokens.LookupToken(r.Context(), auth.words[1])
	if err != nil {
		return nil, nil, err
	}
	if u == nil {
		return nil, nil, exceptions.AuthenticationFailed(msgInvalidToken)
	}
	if !u.IsActive() {
		return nil, nil, exceptions.AuthenticationFailed(msgUserInactive)
	}
	return u, token, nil
}

// AuthenticateHeader returns the keyword.
func (t Token) AuthenticateHeader(*request.Request) string { return t.keyword() }
