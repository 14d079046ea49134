package authentication

import (
	"strings"
	"unicode/utf8"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
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
}

// Failure messages of Basic, in DRF's wording.
const (
	MsgBasicNoCredentials = "Invalid basic header. No credentials provided."
	MsgBasicSpaces        = "Invalid basic header. Credentials string should not contain spaces."
	MsgBasicEncoding      = "Invalid basic header. Credentials not correctly base64 encoded."
	MsgInvalidCredentials = "Invalid username/password."
	MsgUserInactive       = "User inactive or deleted."
)

// Authenticate does not attempt unless the header's first word is "Basic"
// (any case); then the credentials must decode and match an active user.
func (b Basic) Authenticate(r *request.Request) (request.User, any, error) {
	auth := authorization(r)
	if len(auth) == 0 || !asciiEqualFold(auth[0], "basic") {
		return nil, nil, nil
	}
	switch {
	case len(auth) == 1:
		return nil, nil, exceptions.AuthenticationFailed(MsgBasicNoCredentials)
	case len(auth) > 2:
		return nil, nil, exceptions.AuthenticationFailed(MsgBasicSpaces)
	}
	raw, ok := decodeBase64(auth[1])
	if !ok {
		return nil, nil, exceptions.AuthenticationFailed(MsgBasicEncoding)
	}
	username, password, _ := strings.Cut(decodeText(raw), ":")
	u, err := b.Users.CheckPassword(r.Context(), username, password)
	if err != nil {
		return nil, nil, err
	}
	if u == nil {
		return nil, nil, exceptions.AuthenticationFailed(MsgInvalidCredentials)
	}
	if !u.IsActive() {
		return nil, nil, exceptions.AuthenticationFailed(MsgUserInactive)
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

// decodeBase64 decodes leniently, as Python's base64.b64decode does by
// default: characters outside the alphabet are skipped, decoding stops at
// the padding that completes a quantum, and only an incomplete final
// quantum is an error.
func decodeBase64(s string) ([]byte, bool) {
	out := make([]byte, 0, len(s)*3/4)
	var acc uint32
	quad, pads := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '=' {
			if quad >= 2 {
				pads++
				if quad+pads >= 4 {
					return out, true
				}
			}
			continue
		}
		v, ok := base64Value(c)
		if !ok {
			continue
		}
		acc = acc<<6 | uint32(v)
		quad++
		switch quad {
		case 2:
			out = append(out, byte(acc>>4))
			acc &= 0x0f
		case 3:
			out = append(out, byte(acc>>2))
			acc &= 0x03
		case 4:
			out = append(out, byte(acc))
			acc, quad = 0, 0
		}
	}
	return out, quad == 0
}

func base64Value(c byte) (byte, bool) {
	switch {
	case 'A' <= c && c <= 'Z':
		return c - 'A', true
	case 'a' <= c && c <= 'z':
		return c - 'a' + 26, true
	case '0' <= c && c <= '9':
		return c - '0' + 52, true
	case c == '+':
		return 62, true
	case c == '/':
		return 63, true
	}
	return 0, false
}

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
