package simplejwt

import (
	"errors"
	"net/http"
	"slices"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/internal/pycompat"
)

// Codes and messages of simplejwt's authentication failures.
const (
	codeTokenNotValid          = "token_not_valid"
	codeBadAuthorizationHeader = "bad_authorization_header"
	codeUserNotFound           = "user_not_found"
	codeUserInactive           = "user_inactive"

	msgNoValidType     = "Given token not valid for any token type"
	msgTwoValues       = "Authorization header must contain two space-delimited values"
	msgNoUserID        = "Token contained no recognizable user identification"
	msgUserNotFound    = "User not found"
	msgUserInactive    = "User is inactive"
	msgNoActiveAccount = "No active account found with the given credentials"
	// msgNoActiveAccountForToken is simplejwt 5.5's refresh of the token
	// of an inactive user.
	msgNoActiveAccountForToken = "No active account found for the given token."
)

// ErrorBody is the body of simplejwt's authentication failures:
// {"detail", "code"}, and "messages" when no token type accepted the
// token.
type ErrorBody struct {
	// Detail is the message.
	Detail string `json:"detail"`
	// Code is the machine code, e.g. "token_not_valid".
	Code string `json:"code"`
	// Messages say why each token type refused the token.
	Messages []TypeMessage `json:"messages,omitempty"`
}

// TypeMessage is why a token type refused a token.
type TypeMessage struct {
	// TokenClass is simplejwt's class, "AccessToken".
	TokenClass string `json:"token_class"`
	// TokenType is the token_type claim the class wants, "access".
	TokenType string `json:"token_type"`
	// Message is the TokenError's message.
	Message string `json:"message"`
}

// failed is simplejwt's AuthenticationFailed (and InvalidToken): 401 with
// a detail dictionary. Its framework code is authentication_failed, so
// that the view's first scheme adds its WWW-Authenticate.
func failed(body ErrorBody) *exceptions.APIException {
	return &exceptions.APIException{Status: http.StatusUnauthorized, Detail: body, Code: exceptions.CodeAuthenticationFailed}
}

// InvalidToken is simplejwt's InvalidToken with the message: 401
// {"detail": message, "code": "token_not_valid"}.
func InvalidToken(message string) *exceptions.APIException {
	return failed(ErrorBody{Detail: message, Code: codeTokenNotValid})
}

// JWTAuthentication is simplejwt's JWTAuthentication: `Authorization:
// Bearer ACCESS_TOKEN` (the words of AuthHeaderTypes, matched exactly);
// request.Auth is then the token's *Token. Other headers are not
// attempted. Denied anonymous requests get 401 with `WWW-Authenticate:
// Bearer realm="api"`.
type JWTAuthentication struct {
	// JWT reads the tokens and finds their users.
	JWT *JWT
}

// Authenticate reads the access token and its user as simplejwt does.
func (a JWTAuthentication) Authenticate(r *request.Request) (request.User, any, error) {
	parts := pycompat.SplitBytes(authentication.HeaderValue(r.Header, "Authorization"))
	if len(parts) == 0 || !slices.Contains(a.JWT.settings.AuthHeaderTypes, parts[0]) {
		return nil, nil, nil
	}
	if len(parts) != 2 {
		return nil, nil, failed(ErrorBody{Detail: msgTwoValues, Code: codeBadAuthorizationHeader})
	}
	t, err := a.JWT.Read(r.Context(), parts[1], TypeAccess)
	var te *TokenError
	if errors.As(err, &te) {
		return nil, nil, failed(ErrorBody{Detail: msgNoValidType, Code: codeTokenNotValid,
			Messages: []TypeMessage{{TokenClass: "AccessToken", TokenType: TypeAccess, Message: te.Message}}})
	}
	if err != nil {
		return nil, nil, err
	}
	id, valid, ok := t.Claims.UserID()
	if !ok {
		return nil, nil, InvalidToken(msgNoUserID)
	}
	if !valid {
		return nil, nil, failed(ErrorBody{Detail: msgUserNotFound, Code: codeUserNotFound})
	}
	u, err := a.JWT.users.Get(r.Context(), id)
	if errors.Is(err, auth.ErrNotFound) {
		return nil, nil, failed(ErrorBody{Detail: msgUserNotFound, Code: codeUserNotFound})
	}
	if err != nil {
		return nil, nil, err
	}
	if !u.Active {
		return nil, nil, failed(ErrorBody{Detail: msgUserInactive, Code: codeUserInactive})
	}
	return u, t, nil
}

// AuthenticateHeader returns `Bearer realm="api"` (the first header type).
func (a JWTAuthentication) AuthenticateHeader(*request.Request) string {
	return a.JWT.authenticateHeader()
}

// SecurityScheme documents the scheme in the OpenAPI document: HTTP bearer
// with JWTs (schemas.SecurityDescriber).
func (a JWTAuthentication) SecurityScheme() (string, *schemas.SecurityScheme) {
	return "jwtAuth", &schemas.SecurityScheme{Type: "http", Scheme: "bearer",
		Description: "An access token of the JWT obtain view (djangorestframework-simplejwt)."}
}
