package simplejwt

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/go-drf/drf/contrib/auth"
)

// The token types, the values of the token_type claim.
const (
	TypeAccess  = "access"
	TypeRefresh = "refresh"
)

// Messages of the tokens that cannot be used. A token that does not
// decode, whose signature does not match or that has expired is
// msgInvalidOrExpired in simplejwt 5.2 (compat.DRF314), msgExpiredToken
// (expired) or msgInvalid (anything else) in simplejwt 5.5.
const (
	msgInvalidOrExpired = "Token is invalid or expired"
	msgInvalid          = "Token is invalid"
	msgExpiredToken     = "Token is expired"
	msgNoExp            = "Token has no 'exp' claim"
	msgExpired          = "Token 'exp' claim has expired"
	msgNoID             = "Token has no id"
	msgNoType           = "Token has no type"
	msgWrongType        = "Token has wrong type"
	msgBlacklisted      = "Token is blacklisted"
)

// TokenError is a token that cannot be used (simplejwt's TokenError); its
// Message is what the client is told.
type TokenError struct {
	// Message is one of the Msg constants.
	Message string
}

// Error returns the message.
func (e *TokenError) Error() string { return e.Message }

// Token is a token read or made: its payload, and when it was read or
// made (simplejwt's current_time, from which a new token's exp, iat and a
// refresh token's access token are reckoned).
type Token struct {
	// Claims is the payload.
	Claims Claims
	// Now is when the token was read or made.
	Now time.Time
}

// Pair is the answer of the obtain and refresh views: an access token and,
// when one is made, a refresh token, both encoded.
type Pair struct {
	// Access is the access token.
	Access string
	// Refresh is the refresh token; "" when the refresh view does not
	// rotate.
	Refresh string
}

// newJTI returns simplejwt's jti: uuid4().hex, 32 hexadecimal digits of a
// random version 4 UUID.
func newJTI() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return hex.EncodeToString(b[:])
}

// newToken makes a token of the type, issued at now, with simplejwt's
// claims in its order: token_type, exp, iat, jti.
func newToken(typ string, lifetime time.Duration, now time.Time) *Token {
	t := &Token{Now: now}
	t.Claims.SetString(ClaimTokenType, typ)
	t.Claims.SetInt(ClaimExp, now.Add(lifetime).Unix())
	t.Claims.SetInt(ClaimIat, now.Unix())
	t.Claims.SetString(ClaimJTI, newJTI())
	return t
}

// errCannotSign is the error of minting on a service configured to verify
// tokens only.
var errCannotSign = errors.New("simplejwt: no SigningKey: this service only verifies tokens")

// Encode signs the token's claims, with the aud and iss of the settings,
// as simplejwt's TokenBackend.encode does.
func (j *JWT) Encode(t *Token) (string, error) {
	if j.signingKey == nil {
		return "", errCannotSign
	}
	claims := append(Claims(nil), t.Claims...)
	if j.settings.Audience != "" {
		claims.SetString("aud", j.settings.Audience)
	}
	if j.settings.Issuer != "" {
		claims.SetString("iss", j.settings.Issuer)
	}
	return jwt.NewWithClaims(j.method, claims).SignedString(j.signingKey)
}

// ForUser makes a refresh token for u (simplejwt's RefreshToken.for_user),
// recorded as outstanding when the blacklist is installed.
func (j *JWT) ForUser(ctx context.Context, u *auth.User) (*Token, string, error) {
	t := newToken(TypeRefresh, j.settings.RefreshTokenLifetime, time.Now())
	if j.legacy() {
		t.Claims.SetInt(ClaimUserID, u.ID)
	} else {
		// simplejwt 5.5 writes str(user.id).
		t.Claims.SetString(ClaimUserID, strconv.FormatInt(u.ID, 10))
	}
	encoded, err := j.Encode(t)
	if err != nil {
		return nil, "", err
	}
	if j.settings.TokenBlacklist {
		id := u.ID
		if _, err := j.outstanding(ctx, &id, t, encoded, true); err != nil {
			return nil, "", err
		}
	}
	return t, encoded, nil
}

// AccessFor makes the access token of a refresh token: its own token_type,
// exp (reckoned from the refresh token's Now), jti and, as simplejwt 5.5
// does, iat (the refresh token's Now); every other claim is copied from
// the refresh token, iat too at compat.DRF314 (simplejwt 5.2).
func (j *JWT) AccessFor(refresh *Token) *Token {
	access := newToken(TypeAccess, j.settings.AccessTokenLifetime, refresh.Now)
	legacy := j.legacy()
	for _, c := range refresh.Claims {
		switch {
		case c.Name == ClaimTokenType, c.Name == ClaimExp, c.Name == ClaimJTI, c.Name == ClaimIat && !legacy:
			continue
		}
		access.Claims.Set(c.Name, c.Value)
	}
	return access
}

// Obtain makes a pair for u, as the obtain view does once the credentials
// are checked; with UpdateLastLogin it sets u's last_login.
func (j *JWT) Obtain(ctx context.Context, u *auth.User) (Pair, error) {
	refresh, encoded, err := j.ForUser(ctx, u)
	if err != nil {
		return Pair{}, err
	}
	access, err := j.Encode(j.AccessFor(refresh))
	if err != nil {
		return Pair{}, err
	}
	if j.settings.UpdateLastLogin {
		if err := j.users.UpdateLastLogin(ctx, u); err != nil {
			return Pair{}, err
		}
	}
	return Pair{Access: access, Refresh: encoded}, nil
}

// Refresh reads a refresh token and returns a new access token; with
// RotateRefreshTokens a new refresh token too, and with
// BlacklistAfterRotation the one given is blacklisted, in one transaction,
// before anything is returned. Of the refreshes and logouts (Blacklist)
// that race to use one token, only the one whose blacklisted row is
// inserted gets an answer; to the others the token is blacklisted, so one
// rotated token yields one new pair. A token that cannot be used is a
// *TokenError.
func (j *JWT) Refresh(ctx context.Context, raw string) (Pair, error) {
	refresh, err := j.Read(ctx, raw, TypeRefresh)
	if err != nil {
		return Pair{}, err
	}
	if !j.legacy() {
		if err := j.checkUser(ctx, refresh); err != nil {
			return Pair{}, err
		}
	}
	access, err := j.Encode(j.AccessFor(refresh))
	if err != nil {
		return Pair{}, err
	}
	p := Pair{Access: access}
	if !j.settings.RotateRefreshTokens {
		return p, nil
	}
	if j.settings.BlacklistAfterRotation {
		if err := j.blacklist(ctx, refresh, raw); err != nil {
			return Pair{}, err
		}
	}
	refresh.Claims.SetString(ClaimJTI, newJTI())
	refresh.Claims.SetInt(ClaimExp, refresh.Now.Add(j.settings.RefreshTokenLifetime).Unix())
	refresh.Claims.SetInt(ClaimIat, refresh.Now.Unix())
	if p.Refresh, err = j.Encode(refresh); err != nil {
		return Pair{}, err
	}
	return p, nil
}

// ErrNoActiveAccount is Refresh's answer, from simplejwt 5.5 on, for a
// refresh token whose user is inactive or gone: the refresh view answers
// it 401 {"detail": "No active account found for the given token."}.
var ErrNoActiveAccount = errors.New(msgNoActiveAccountForToken)

// checkUser is simplejwt 5.5's check of the refresh token's user: a
// user_id that is there and not empty, zero or null must name an active
// user (USER_AUTHENTICATION_RULE). simplejwt fails with a server error
// when the user is gone; here that is ErrNoActiveAccount too.
func (j *JWT) checkUser(ctx context.Context, t *Token) error {
	raw, ok := t.Claims.Raw(ClaimUserID)
	if !ok {
		return nil
	}
	switch string(raw) {
	case "0", `""`, "null", "false", "[]", "{}", "0.0":
		return nil
	}
	id, valid, _ := t.Claims.UserID()
	if !valid {
		return ErrNoActiveAccount
	}
	u, err := j.users.Get(ctx, id)
	if errors.Is(err, auth.ErrNotFound) {
		return ErrNoActiveAccount
	}
	if err != nil {
		return err
	}
	if !u.Active {
		return ErrNoActiveAccount
	}
	return nil
}

// Verify reads a token of any type (simplejwt's UntypedToken); with
// BlacklistAfterRotation a blacklisted one is ErrBlacklisted, as
// simplejwt's verify serializer answers it. A token that cannot be used is
// a *TokenError.
func (j *JWT) Verify(ctx context.Context, raw string) error {
	t, err := j.Read(ctx, raw, "")
	if err != nil {
		return err
	}
	if j.settings.BlacklistAfterRotation {
		listed, err := j.isBlacklisted(ctx, t.Claims.Text(ClaimJTI))
		if err != nil {
			return err
		}
		if listed {
			return ErrBlacklisted
		}
	}
	return nil
}

// ErrBlacklisted is Verify's answer for a blacklisted token.
var ErrBlacklisted = errors.New(msgBlacklisted)

// Blacklist reads a refresh token and blacklists it (a logout). It needs
// TokenBlacklist; a token that cannot be used is a *TokenError. A token
// that a racing refresh (or logout) blacklisted first is "Token is blacklisted",
// as it is once that one has answered. So with BlacklistAfterRotation nil
// means that no refresh of the token, before or after, is answered a new
// token: it would have had to blacklist the token first.
func (j *JWT) Blacklist(ctx context.Context, raw string) error {
	if !j.settings.TokenBlacklist {
		return errors.New("simplejwt: Blacklist needs TokenBlacklist (the blacklist's Migrations applied)")
	}
	t, err := j.Read(ctx, raw, TypeRefresh)
	if err != nil {
		return err
	}
	return j.blacklist(ctx, t, raw)
}

// Read decodes and checks a token as simplejwt's Token(raw) does: the
// signature, algorithm, exp, nbf, aud and iss (any failure is "Token is
// invalid or expired"), then, for a refresh token with the blacklist
// installed, the blacklist, then an exp claim, a jti claim and, unless typ
// is "" (an untyped token), the token_type claim. A token that cannot be
// used is a *TokenError; other errors are the database's.
func (j *JWT) Read(ctx context.Context, raw, typ string) (*Token, error) {
	t := &Token{}
	if _, err := j.parser.ParseWithClaims(raw, &t.Claims, func(*jwt.Token) (any, error) { return j.verifyingKey, nil }); err != nil {
		return nil, &TokenError{j.undecodable(err)}
	}
	t.Now = time.Now()
	if typ == TypeRefresh && j.settings.TokenBlacklist {
		if _, ok := t.Claims.Raw(ClaimJTI); !ok {
			return nil, &TokenError{msgNoID}
		}
		listed, err := j.isBlacklisted(ctx, t.Claims.Text(ClaimJTI))
		if err != nil {
			return nil, err
		}
		if listed {
			return nil, &TokenError{msgBlacklisted}
		}
	}
	exp, err := t.Claims.GetExpirationTime()
	switch {
	case err != nil:
		return nil, &TokenError{j.undecodable(err)}
	case exp == nil:
		return nil, &TokenError{msgNoExp}
	case !exp.After(t.Now.Add(-j.settings.Leeway)):
		return nil, &TokenError{msgExpired}
	}
	if _, ok := t.Claims.Raw(ClaimJTI); !ok {
		return nil, &TokenError{msgNoID}
	}
	if typ == "" {
		return t, nil
	}
	if _, ok := t.Claims.Raw(ClaimTokenType); !ok {
		return nil, &TokenError{msgNoType}
	}
	if got, _ := t.Claims.String(ClaimTokenType); got != typ {
		return nil, &TokenError{msgWrongType}
	}
	return t, nil
}

// undecodable is the message of a token that PyJWT refuses: simplejwt
// 5.2's one message, or simplejwt 5.5's "Token is expired" when the
// expiry is what PyJWT meets first (it checks iat and nbf before exp),
// "Token is invalid" otherwise.
func (j *JWT) undecodable(err error) string {
	switch {
	case j.legacy():
		return msgInvalidOrExpired
	case errors.Is(err, jwt.ErrTokenExpired) && !errors.Is(err, jwt.ErrTokenNotValidYet) && !errors.Is(err, jwt.ErrTokenUsedBeforeIssued) &&
		!errors.Is(err, jwt.ErrTokenSignatureInvalid) && !errors.Is(err, jwt.ErrTokenMalformed):
		return msgExpiredToken
	}
	return msgInvalid
}
