// Package authentication holds DRF's built-in authentication schemes:
// Basic, Token, Session and RemoteUser. Each is a request.Authenticator,
// exactly like a scheme a user writes: it returns (user, auth) on success,
// (nil, nil, nil) when it does not attempt, or an authentication-failed
// error; Basic and Token also supply a WWW-Authenticate value
// (request.Challenger), so that denied anonymous requests are 401.
//
// The schemes depend on small interfaces for the user, token and session
// stores; contrib/auth, contrib/authtoken and contrib/sessions provide them.
// Use the schemes as values (not pointers) so that a type switch on
// request.SuccessfulAuthenticator sees them as they are documented.
package authentication

import (
	"context"
	"fmt"
	"net/http"

	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// PasswordChecker checks a username and password, as Django's authenticate()
// does for BasicAuthentication.
type PasswordChecker interface {
	// CheckPassword returns the user the credentials belong to, or a nil
	// user and a nil error when they do not match. An error is a failure of
	// the store itself.
	CheckPassword(ctx context.Context, username, password string) (request.User, error)
}

// TokenStore finds the token a client presents, for TokenAuthentication.
type TokenStore interface {
	// LookupToken returns the token's owner and the token record (which
	// becomes request.Auth), or a nil user and a nil error when no token
	// has that key.
	LookupToken(ctx context.Context, key string) (request.User, any, error)
}

// RemoteUserStore finds the user a trusted server names, for
// RemoteUserAuthentication.
type RemoteUserStore interface {
	// RemoteUser returns the user called username, creating it first when
	// create is true and there is none; a nil user and a nil error when
	// there is none and create is false.
	RemoteUser(ctx context.Context, username string, create bool) (request.User, error)
}

// SessionBackend is what SessionAuthentication needs of a session framework.
type SessionBackend interface {
	// SessionUser returns the user the request's session is logged in as,
	// or nil when the request has no valid logged-in session.
	SessionUser(r *http.Request) (request.User, error)
	// EnforceCSRF returns nil when the request passes CSRF validation, and
	// otherwise the error to answer with (403 "CSRF Failed: <reason>").
	EnforceCSRF(r *request.Request) error
}

// PasswordCheckerFunc adapts a function to PasswordChecker.
type PasswordCheckerFunc func(ctx context.Context, username, password string) (request.User, error)

// CheckPassword calls f.
func (f PasswordCheckerFunc) CheckPassword(ctx context.Context, username, password string) (request.User, error) {
	return f(ctx, username, password)
}

// HeaderValue is the value of the request header name as a scheme of DRF
// reads it from request.META: every field of that name, in the order
// sent, joined by a comma, as gunicorn (and any WSGI server) joins a
// repeated header. Read a header through it, not Header.Get, whose first
// field alone would let a request carrying the header twice (a client's
// copy and a proxy's, or one credential and another) authenticate as the
// first where DRF refuses the pair: "Token KEY" then "Token OTHER" is
// "Token KEY,Token OTHER", three words. TrustedHeader, which names a user
// outright, refuses a repeated header instead.
func HeaderValue(h http.Header, name string) string {
	v, _ := pycompat.HeaderValue(h, name)
	return v
}

// header is the Authorization header (HeaderValue) split on ASCII
// whitespace, as DRF splits the header's bytes: its first two words and
// how many words it has, counted up to three.
type header struct {
	words [2]string
	n     int
}

func authorization(r *request.Request) header {
	var h header
	rest, _ := pycompat.HeaderLines(r.Header["Authorization"])
	for h.n < 3 {
		start := 0
		for start < len(rest) && asciiSpace(rest[start]) {
			start++
		}
		if start == len(rest) {
			break
		}
		end := start
		for end < len(rest) && !asciiSpace(rest[end]) {
			end++
		}
		if h.n < len(h.words) {
			h.words[h.n] = rest[start:end]
		}
		h.n++
		rest = rest[end:]
	}
	return h
}

func asciiSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// asciiEqualFold reports whether a and b are equal ignoring the case of
// ASCII letters only, as DRF compares the keyword's bytes; Unicode folding
// would also match "Baſic" or a Kelvin sign.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if asciiLower(a[i]) != asciiLower(b[i]) {
			return false
		}
	}
	return true
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// checkStore is a scheme's registration check of its store: refused when
// nil (field names it, what says what to set), else the store's own check
// when it has one (request.AuthenticatorChecker).
func checkStore(store any, field, what string) error {
	if store == nil {
		return fmt.Errorf("%s is nil; set %s", field, what)
	}
	if c, ok := store.(request.AuthenticatorChecker); ok {
		return c.CheckAuthenticator()
	}
	return nil
}
