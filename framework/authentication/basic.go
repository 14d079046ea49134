package authentication

import (
	"strings"
	"unicode/utf8"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// Basic is DRF's BasicAuthentication: "Authorization: Basic
// base64(username:password)" checked by Users. It answers denied anonymous
// requests with 401 and `WWW-Authenticate: Basic realm="api"`. Serve it
// over HTTPS only; it suits tests and scripts more than browsers.
type Basic struct {
	// Users checks the credentials.
	Users PasswordChecker
	// Realm is the realm of the challenge; "" gives "api".
	Realm string

	// legacy: DRF 3.14 checks credentials without a colon as a username
	// with an empty password (WithCompatibility).
	legacy bool
}

// WithCompatibility returns b answering as the release c names: from DRF
// 3.15 on (#8790) credentials without a colon are badly encoded; DRF 3.14
// checks them as a username with an empty password.
func (b Basic) WithCompatibility(c compat.Level) request.Authenticator {
	b.legacy = c == compat.DRF314
	return b
}

// Failure messages of Basic, in DRF's wording.
const (
	msgBasicNoCredentials = "Invalid basic header. No credentials provided."
	msgBasicSpaces        = "Invalid basic header. Credentials string should not contain spaces."
	msgBasicEncoding      = "Invalid basic header. Credentials not correctly base64 encoded."
	msgInvalidCredentials = "Invalid username/password."
	msgUserInactive       = "User inactive or deleted."
)

// CheckAuthenticator refuses, at registration, a Basic without Users
// (request.AuthenticatorChecker), and runs the store's own check.
func (b Basic) CheckAuthenticator() error {
	return checkStore(b.Users, "Users", "the store that checks usernames and passwords")
}

// Authenticate does not attempt unless the header's first word is "Basic"
// (any case); then the credentials must decode and match an active user.
func (b Basic) Authenticate(r *request.Request) (request.User, any, error) {
	auth := authorization(r)
	if auth.n == 0 || !asciiEqualFold(auth.words[0], "basic") {
		return nil, nil, nil
	}
	switch {
	case auth.n == 1:
		return nil, nil, exceptions.AuthenticationFailed(msgBasicNoCredentials)
	case auth.n > 2:
		return nil, nil, exceptions.AuthenticationFailed(msgBasicSpaces)
	}
	raw, ok := pycompat.B64Decode(auth.words[1])
	if !ok {
		return nil, nil, exceptions.AuthenticationFailed(msgBasicEncoding)
	}
	username, password, colon := strings.Cut(decodeText(raw), ":")
	if !colon && !b.legacy {
		return nil, nil, exceptions.AuthenticationFailed(msgBasicEncoding)
	}
	u, err := b.Users.CheckPassword(r.Context(), username, password)
	if err != nil {
		return nil, nil, err
	}
	if u == nil {
		return nil, nil, exceptions.AuthenticationFailed(msgInvalidCredentials)
	}
	if !u.IsActive() {
		return nil, nil, exceptions.AuthenticationFailed(msgUserInactive)
	}
	return u, nil, nil
}

// AuthenticateHeader returns `Basic realm="<realm>"`.
func (b Basic) AuthenticateHeader(*request.Request) string {
	realm := b.Realm
	if realm == "" {
		realm = "api"
	}
	return challenge("Basic", realm)
}

// challenge is a WWW-Authenticate value of scheme with a realm parameter,
// the realm a quoted-string (RFC 9110: quotes and backslashes escaped).
func challenge(scheme, realm string) string {
	return scheme + ` realm="` + realmEscaper.Replace(realm) + `"`
}

var realmEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// decodeText reads credentials as UTF-8, or as Latin-1 when they are not
// valid UTF-8.
func decodeText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return sb.String()
}
