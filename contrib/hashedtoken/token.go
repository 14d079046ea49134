// Package hashedtoken is a token store as django-rest-knox keeps it, for
// users who want more than DRF's authtoken: several tokens per user (one
// per device, each named), stored hashed (only an 8-character prefix and
// the SHA-256 digest of the key; the key is shown once, when created),
// each expiring, optionally extended on use (sliding expiry), with
// endpoints to log in, list and revoke one's tokens, and log out one
// device or all. It lives in its own table, hashedtoken_token, beside
// Django's authtoken_token, which stays the default.
//
// A *Tokens is the authentication.TokenStore of authentication.Token; give
// it a keyword of its own, "Bearer" as OAuth clients send (DRF #4080):
//
//	authentication.Token{Tokens: devices, Keyword: "Bearer"}
//
// request.Auth is then the *Token the request presented.
package hashedtoken

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/internal/tables"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// KeyPrefix starts every key this package makes, as django-rest-knox's
// TOKEN_PREFIX starts its tokens: a fixed, distinctive string by which a
// secret scanner (GitHub's, a pre-commit hook, a log filter) recognises a
// leaked key, followed by the random part. Keys made before it was added
// are the random part alone, and stay valid.
const KeyPrefix = "drfht_"

// Sizes of keys and what is stored of them.
const (
	// KeyLength is the length of a key's random part, after KeyPrefix:
	// 32 random bytes in hexadecimal.
	KeyLength = 64
	// prefixLength is the length of the start of the random part kept in
	// the table, by which users tell their tokens apart.
	prefixLength = 8
	// maxNameLength bounds a token's name.
	maxNameLength = 64
)

// Defaults of Tokens, as django-rest-knox's.
const (
	defaultTTL                = 10 * time.Hour
	defaultMinRefreshInterval = time.Minute
)

// Errors of the store.
var (
	// ErrNotFound is returned for a token that does not exist, or is not
	// the given user's.
	ErrNotFound = errors.New("hashedtoken: token not found")
	// ErrLimit is returned by Create when the user has Limit tokens.
	ErrLimit = errors.New("hashedtoken: the user has the maximum number of tokens")
	// ErrName is returned by Create for a name that is too long or not
	// storable text.
	ErrName = fmt.Errorf("hashedtoken: a token's name is at most %d characters of UTF-8 without NUL", maxNameLength)
)

// Token is one row of hashedtoken_token. It holds no key: only the prefix
// and the digest are stored.
type Token struct {
	// ID identifies the token, for listing and revoking.
	ID int64 `db:"id" json:"id" drf:"read_only"`
	// Name says which device or client holds the token ("" when unnamed).
	Name string `db:"name" json:"name" drf:"max_length=64,allow_blank" model:"max_length=64,blank"`
	// Prefix is the first prefixLength characters of the key's random
	// part (after KeyPrefix).
	Prefix string `db:"token_key" json:"prefix" drf:"read_only" model:"max_length=8,editable=false"`
	// Digest is the hexadecimal SHA-256 of the key.
	Digest string `db:"digest" json:"-" model:"max_length=64,unique,editable=false"`
	// Created is when the token was made, in UTC.
	Created time.Time `db:"created" json:"created" drf:"read_only" model:"auto_now_add"`
	// Expiry is when the token stops authenticating; nil never.
	Expiry *time.Time `db:"expiry" json:"expiry" drf:"read_only" model:"blank"`
	// UserID is the owner's primary key.
	UserID int64 `db:"user_id" json:"-" model:"foreign_key=auth_user,on_delete=cascade"`
	// User is the owner, when the token was read with its user
	// (SelectRelated("user")).
	User *auth.User `db:"-" json:"-" drf:"source=user"`
}

// String describes the token by its prefix.
func (t *Token) String() string {
	return fmt.Sprintf("token %d (%s…) of user %d", t.ID, t.Prefix, t.UserID)
}

// LogValue logs the token without its digest.
func (t *Token) LogValue() slog.Value {
	return slog.GroupValue(slog.Int64("id", t.ID), slog.String("prefix", t.Prefix), slog.Int64("user_id", t.UserID))
}

// digest returns the hexadecimal SHA-256 of key, what the table stores.
// Keys are 256 random bits, so a fast hash is enough: no one can search
// such a space, salted or not.
func digest(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// Tokens reads and writes hashedtoken_token. Its zero value (but DB)
// gives tokens that expire defaultTTL after creation and are not
// extended on use.
type Tokens struct {
	// DB is the database holding hashedtoken_token and auth_user.
	DB *sqlx.DB
	// TTL is the lifetime of a new token; 0 gives 10 hours, a negative
	// TTL tokens that never expire.
	TTL time.Duration
	// Refresh extends a token's expiry to TTL from now whenever it
	// authenticates (sliding expiry), at most once per MinRefreshInterval.
	Refresh bool
	// MinRefreshInterval is the least extension that is written; 0 gives
	// a minute.
	MinRefreshInterval time.Duration
	// MaxAge caps sliding expiry: no token lives past Created + MaxAge;
	// 0 leaves it uncapped.
	MaxAge time.Duration
	// Limit is the number of live tokens a user may hold; 0 is no limit.
	Limit int

	// now is the clock; nil is time.Now.
	now func() time.Time
}

// CheckAuthenticator makes the tokens' source over DB when a view that
// authenticates with them is registered (request.AuthenticatorChecker),
// which installs Token on DB: deleting a user then deletes its tokens
// before any token has been read.
func (s *Tokens) CheckAuthenticator() error {
	_, err := tables.Of[Token](s.DB)
	return err
}

func (s *Tokens) clock() time.Time {
	if s.now != nil {
		return s.now().UTC()
	}
	return time.Now().UTC()
}

func (s *Tokens) ttl() time.Duration {
	if s.TTL == 0 {
		return defaultTTL
	}
	return s.TTL
}

// generateKey returns a new key: KeyPrefix, then 32 bytes from
// crypto/rand in hexadecimal.
func generateKey() string {
	b := make([]byte, KeyLength/2)
	rand.Read(b)
	return KeyPrefix + hex.EncodeToString(b)
}

// Create makes a token for the user and returns it with its key, which is
// stored nowhere: show it to the client now. Expired tokens of the user are
// deleted first; ErrLimit when the user still holds Limit tokens.
func (s *Tokens) Create(ctx context.Context, userID int64, name string) (key string, tok *Token, err error) {
	if utf8.RuneCountInString(name) > maxNameLength || !store.StorableText(name) {
		return "", nil, ErrName
	}
	key = generateKey()
	now := s.clock().Truncate(time.Microsecond)
	tok = &Token{Name: name, Prefix: key[len(KeyPrefix):][:prefixLength], Digest: digest(key), Created: now, UserID: userID}
	if ttl := s.ttl(); ttl > 0 {
		exp := now.Add(ttl)
		tok.Expiry = &exp
	}
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return "", nil, err
	}
	mine := src.Match(ofUser(userID))
	err = store.Atomic(ctx, s.DB, func(ctx context.Context) error {
		if _, err := mine.Match(queryset.Lookup("expiry", query.LTE, store.FormatTime(now))).DeleteAll(ctx); err != nil {
			return err
		}
		if s.Limit > 0 {
			n, err := mine.Count(ctx)
			if err != nil {
				return err
			}
			if n >= s.Limit {
				return ErrLimit
			}
		}
		if s.now == nil {
			return src.Insert(ctx, tok)
		}
		// The model's auto_now_add sets Created to the time of the insert,
		// as Django's create() does; the store's own clock is written over
		// it, as Django would with an update.
		if err := src.Insert(ctx, tok); err != nil {
			return err
		}
		tok.Created = now
		_, err := src.Match(byID(tok.ID)).UpdateAll(ctx, tok, "created")
		return err
	})
	if err != nil {
		return "", nil, err
	}
	return key, tok, nil
}

// Get returns the live token of key with its user, or ErrNotFound: for a
// key of another form, one no token has, or an expired token (which is
// deleted then). With Refresh, the expiry is extended.
func (s *Tokens) Get(ctx context.Context, key string) (*Token, error) {
	if !validKey(key) {
		return nil, ErrNotFound
	}
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return nil, err
	}
	// The digest is found through its unique index: comparing digests
	// leaks nothing of the key.
	tok, err := src.SelectRelated("user").Get(ctx, "digest", digest(key))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	tok.User.BindDB(s.DB)
	now := s.clock()
	if tok.Expiry != nil && !now.Before(*tok.Expiry) {
		if _, err := src.Match(byID(tok.ID)).DeleteAll(ctx); err != nil {
			return nil, err
		}
		return nil, ErrNotFound
	}
	if err := s.refresh(ctx, tok, now); err != nil {
		return nil, err
	}
	return tok, nil
}

// refresh extends tok's expiry to TTL from now (capped by MaxAge) when
// Refresh is on and that moves it by MinRefreshInterval or more.
func (s *Tokens) refresh(ctx context.Context, tok *Token, now time.Time) error {
	if !s.Refresh || tok.Expiry == nil || s.ttl() < 0 {
		return nil
	}
	exp := now.Add(s.ttl()).Truncate(time.Microsecond)
	if s.MaxAge > 0 {
		if limit := tok.Created.Add(s.MaxAge); exp.After(limit) {
			exp = limit
		}
	}
	step := s.MinRefreshInterval
	if step == 0 {
		step = defaultMinRefreshInterval
	}
	if exp.Sub(*tok.Expiry) < step {
		return nil
	}
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return err
	}
	if _, err := src.Match(byID(tok.ID)).UpdateAll(ctx, &Token{Expiry: &exp}, "expiry"); err != nil {
		return err
	}
	tok.Expiry = &exp
	return nil
}

// validKey reports whether key has the form of a key: KeyPrefix (absent
// from the keys made before it) and KeyLength lowercase hexadecimal
// characters.
func validKey(key string) bool {
	key = strings.TrimPrefix(key, KeyPrefix)
	if len(key) != KeyLength {
		return false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// LookupToken implements authentication.TokenStore: the owner and the
// *Token of key, or a nil user when key names no live token.
func (s *Tokens) LookupToken(ctx context.Context, key string) (request.User, any, error) {
	tok, err := s.Get(ctx, key)
	if errors.Is(err, ErrNotFound) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return tok.User, tok, nil
}

// ForUser returns the user's live tokens, newest first.
func (s *Tokens) ForUser(ctx context.Context, userID int64) ([]*Token, error) {
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return nil, err
	}
	live := queryset.Or(queryset.Lookup("expiry", query.IsNull, "true"),
		queryset.Lookup("expiry", query.GT, store.FormatTime(s.clock())))
	return src.Match(ofUser(userID), live).OrderBy(query.Order{Field: "created", Desc: true}, query.Order{Field: "id", Desc: true}).Slice(ctx, 0, -1)
}

// ofUser is the condition of the tokens of userID.
func ofUser(userID int64) queryset.Q {
	return queryset.Lookup("user", query.Exact, strconv.FormatInt(userID, 10))
}

// byID is the condition of the token id.
func byID(id int64) queryset.Q { return queryset.Lookup("id", query.Exact, strconv.FormatInt(id, 10)) }

// Revoke deletes the user's token id; ErrNotFound when the user has no
// such token.
func (s *Tokens) Revoke(ctx context.Context, userID, id int64) error {
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return err
	}
	n, err := src.Match(byID(id), ofUser(userID)).DeleteAll(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// RevokeAll deletes every token of the user (log out everywhere) and
// returns how many there were.
func (s *Tokens) RevokeAll(ctx context.Context, userID int64) (int, error) {
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return 0, err
	}
	n, err := src.Match(ofUser(userID)).DeleteAll(ctx)
	return int(n), err
}

// ClearExpired deletes the expired tokens of all users and returns how
// many; expired tokens never authenticate, this only reclaims the rows.
func (s *Tokens) ClearExpired(ctx context.Context) (int, error) {
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return 0, err
	}
	n, err := src.Match(queryset.Lookup("expiry", query.LTE, store.FormatTime(s.clock()))).DeleteAll(ctx)
	return int(n), err
}
