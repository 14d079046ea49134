// Package simplejwt is djangorestframework-simplejwt (5.5, or 5.2 with
// Settings.Compatibility at compat.DRF314) and its
// token_blacklist app: access and refresh JSON web tokens with simplejwt's
// claims (token_type, exp, iat, jti, user_id), the obtain, refresh, verify
// and blacklist views, and JWTAuthentication (`Authorization: Bearer
// TOKEN`). Tokens are signed and checked by github.com/golang-jwt/jwt/v5
// and are interchangeable with a Django site's that has the same settings
// and key; the blacklist lives in simplejwt's own tables
// (token_blacklist_outstandingtoken, token_blacklist_blacklistedtoken),
// the models OutstandingToken and BlacklistedToken of the app App,
// created by Migrations as simplejwt's migrations create them.
package simplejwt

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/queryset"
)

// Settings are simplejwt's SIMPLE_JWT settings that this package reads.
// The zero value is simplejwt's defaults: HS256 signed with the SECRET_KEY,
// access tokens for 5 minutes, refresh tokens for a day, no rotation, no
// blacklist, `Authorization: Bearer`.
type Settings struct {
	// AccessTokenLifetime is ACCESS_TOKEN_LIFETIME; 0 is 5 minutes.
	AccessTokenLifetime time.Duration
	// RefreshTokenLifetime is REFRESH_TOKEN_LIFETIME; 0 is one day.
	RefreshTokenLifetime time.Duration
	// RotateRefreshTokens is ROTATE_REFRESH_TOKENS: the refresh view
	// answers a new refresh token too.
	RotateRefreshTokens bool
	// BlacklistAfterRotation is BLACKLIST_AFTER_ROTATION: the refresh view
	// blacklists the refresh token it rotated. It needs TokenBlacklist.
	BlacklistAfterRotation bool
	// TokenBlacklist is the token_blacklist app being installed (its
	// Migrations applied): refresh tokens obtained are recorded as
	// outstanding, blacklisted ones are refused, and BlacklistView works.
	TokenBlacklist bool
	// UpdateLastLogin is UPDATE_LAST_LOGIN: obtaining a pair sets the
	// user's last_login.
	UpdateLastLogin bool
	// Algorithm is ALGORITHM: HS256, HS384, HS512, RS256, RS384, RS512,
	// ES256, ES384 or ES512; "" is HS256.
	Algorithm string
	// SigningKey is SIGNING_KEY: the HMAC secret ("" is the SECRET_KEY
	// given to New), or for RS and ES the private key in PEM.
	SigningKey string
	// VerifyingKey is VERIFYING_KEY, the public key in PEM of RS and ES;
	// "" is the signing key's public key. A service that only verifies
	// tokens sets it and no SigningKey.
	VerifyingKey string
	// Audience is AUDIENCE: written into the tokens' aud claim and
	// required of the tokens read; "" is none.
	Audience string
	// Issuer is ISSUER: written into the tokens' iss claim and required of
	// the tokens read; "" is none.
	Issuer string
	// Leeway is LEEWAY, the clock skew allowed when checking exp and nbf.
	Leeway time.Duration
	// Compatibility is the release whose simplejwt the tokens answer as:
	// the zero value (compat.Current) simplejwt 5.5, beside DRF 3.18, where
	// user_id is a string, a token that does not decode is "Token is
	// invalid" or "Token is expired", a refreshed access token gets its own
	// iat and the refresh view refuses the token of an inactive user;
	// compat.DRF314 simplejwt 5.2, beside DRF 3.14, where user_id is the
	// id as it is, either failure is "Token is invalid or expired" and the
	// access token keeps the refresh token's iat. The sample sets it from
	// framework.Settings.Compatibility.
	Compatibility compat.Level
	// AuthHeaderTypes is AUTH_HEADER_TYPES, the words that may precede the
	// token in the Authorization header, matched exactly; nil is
	// {"Bearer"}. The first names the scheme in WWW-Authenticate.
	AuthHeaderTypes []string
}

// algorithms are simplejwt's ALLOWED_ALGORITHMS.
var algorithms = []string{"HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "ES256", "ES384", "ES512"}

// JWT mints, reads and blacklists the tokens of one configuration. Make it
// with New; it is safe for concurrent use.
type JWT struct {
	settings Settings
	db       *sqlx.DB
	users    *auth.Users
	method   jwt.SigningMethod
	// signingKey is []byte, *rsa.PrivateKey or *ecdsa.PrivateKey, as
	// golang-jwt's method takes it; nil when the service only verifies.
	signingKey   any
	verifyingKey any
	parser       *jwt.Parser
	// outstandings and blacklisted are the blacklist's tables, with
	// Settings.TokenBlacklist.
	outstandings *queryset.SQLSource[OutstandingToken]
	blacklisted  *queryset.SQLSource[BlacklistedToken]
}

// New checks the settings and returns the tokens of users, with the
// blacklist in db. secretKey is Django's SECRET_KEY, the HMAC key unless
// s.SigningKey sets another. An unknown algorithm, a key that does not
// parse or BlacklistAfterRotation without TokenBlacklist is an error.
func New(db *sqlx.DB, users *auth.Users, secretKey string, s Settings) (*JWT, error) {
	if s.AccessTokenLifetime == 0 {
		s.AccessTokenLifetime = 5 * time.Minute
	}
	if s.RefreshTokenLifetime == 0 {
		s.RefreshTokenLifetime = 24 * time.Hour
	}
	if s.AccessTokenLifetime < 0 || s.RefreshTokenLifetime < 0 || s.Leeway < 0 {
		return nil, errors.New("simplejwt: lifetimes and leeway must not be negative")
	}
	if s.Algorithm == "" {
		s.Algorithm = "HS256"
	}
	if !slices.Contains(algorithms, s.Algorithm) {
		return nil, fmt.Errorf("simplejwt: unrecognized algorithm type %q (one of %v)", s.Algorithm, algorithms)
	}
	if s.BlacklistAfterRotation && !s.TokenBlacklist {
		return nil, errors.New("simplejwt: BlacklistAfterRotation needs TokenBlacklist (the blacklist's Migrations applied)")
	}
	if len(s.AuthHeaderTypes) == 0 {
		s.AuthHeaderTypes = []string{"Bearer"}
	}
	s.AuthHeaderTypes = slices.Clone(s.AuthHeaderTypes)
	j := &JWT{settings: s, db: db, users: users, method: jwt.GetSigningMethod(s.Algorithm)}
	if s.TokenBlacklist {
		var err error
		if j.outstandings, err = queryset.NewSQL[OutstandingToken](db, queryset.SQLConfig{}); err != nil {
			return nil, fmt.Errorf("simplejwt: %w", err)
		}
		if j.blacklisted, err = queryset.NewSQL[BlacklistedToken](db, queryset.SQLConfig{}); err != nil {
			return nil, fmt.Errorf("simplejwt: %w", err)
		}
	}
	if err := j.loadKeys(secretKey); err != nil {
		return nil, err
	}
	opts := []jwt.ParserOption{jwt.WithValidMethods([]string{s.Algorithm}), jwt.WithLeeway(s.Leeway)}
	if s.Audience != "" {
		opts = append(opts, jwt.WithAudience(s.Audience))
	}
	if s.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(s.Issuer))
	}
	j.parser = jwt.NewParser(opts...)
	return j, nil
}

// loadKeys parses the signing and verifying keys of the algorithm.
func (j *JWT) loadKeys(secretKey string) error {
	s := j.settings
	switch s.Algorithm[:2] {
	case "HS":
		key := s.SigningKey
		if key == "" {
			key = secretKey
		}
		if key == "" {
			return errors.New("simplejwt: HMAC needs a SigningKey or the SECRET_KEY")
		}
		j.signingKey, j.verifyingKey = []byte(key), []byte(key)
		return nil
	case "RS":
		if s.SigningKey != "" {
			k, err := jwt.ParseRSAPrivateKeyFromPEM([]byte(s.SigningKey))
			if err != nil {
				return fmt.Errorf("simplejwt: SigningKey of %s: %w", s.Algorithm, err)
			}
			j.signingKey, j.verifyingKey = k, &k.PublicKey
		}
		if s.VerifyingKey != "" {
			k, err := jwt.ParseRSAPublicKeyFromPEM([]byte(s.VerifyingKey))
			if err != nil {
				return fmt.Errorf("simplejwt: VerifyingKey of %s: %w", s.Algorithm, err)
			}
			if priv, ok := j.signingKey.(*rsa.PrivateKey); ok && !priv.PublicKey.Equal(k) {
				return errors.New("simplejwt: VerifyingKey is not SigningKey's public key")
			}
			j.verifyingKey = k
		}
	default: // ES
		if s.SigningKey != "" {
			k, err := jwt.ParseECPrivateKeyFromPEM([]byte(s.SigningKey))
			if err != nil {
				return fmt.Errorf("simplejwt: SigningKey of %s: %w", s.Algorithm, err)
			}
			j.signingKey, j.verifyingKey = k, &k.PublicKey
		}
		if s.VerifyingKey != "" {
			k, err := jwt.ParseECPublicKeyFromPEM([]byte(s.VerifyingKey))
			if err != nil {
				return fmt.Errorf("simplejwt: VerifyingKey of %s: %w", s.Algorithm, err)
			}
			if priv, ok := j.signingKey.(*ecdsa.PrivateKey); ok && !priv.PublicKey.Equal(k) {
				return errors.New("simplejwt: VerifyingKey is not SigningKey's public key")
			}
			j.verifyingKey = k
		}
	}
	if j.verifyingKey == nil {
		return fmt.Errorf("simplejwt: %s needs a SigningKey or a VerifyingKey in PEM", s.Algorithm)
	}
	return nil
}

// authenticateHeader is simplejwt's WWW-Authenticate value: the first
// header type and the realm "api".
// legacy reports whether the tokens answer as simplejwt 5.2 (compat.DRF314).
func (j *JWT) legacy() bool { return j.settings.Compatibility == compat.DRF314 }

func (j *JWT) authenticateHeader() string {
	return j.settings.AuthHeaderTypes[0] + ` realm="api"`
}
