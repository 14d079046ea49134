// Package authtoken is DRF's authtoken app: one token per user in Django's
// authtoken_token table, the obtain-token endpoint, a hook that gives each
// new user a token, an admin page, and the drf_create_token command. A
// *Tokens is the authentication.TokenStore of authentication.Token.
package authtoken

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/internal/tables"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// Models are DRF's token models, for auth.PermissionsMigration: Token
// (authtoken.add_token ..., "Can add Token") and TokenProxy, the model of
// its admin.
var Models = []auth.Model{
	{AppLabel: "authtoken", Name: "token", VerboseName: "Token"},
	{AppLabel: "authtoken", Name: "tokenproxy", VerboseName: "token"},
}

// ErrNotFound is returned by lookups of a token that does not exist.
var ErrNotFound = errors.New("authtoken: token not found")

// Token is DRF's rest_framework.authtoken.models.Token, one row of
// authtoken_token. Its String and LogValue do not show the key, so that
// logging a token does not leak it.
type Token struct {
	// Key is the secret the client sends: 40 hexadecimal characters.
	Key string `db:"key" json:"key" model:"primary_key,max_length=40"`
	// Created is when the token was made, in UTC.
	Created time.Time `db:"created" json:"created" model:"auto_now_add"`
	// UserID is the owner's primary key; a user has at most one token
	// (Django's OneToOneField user, related_name auth_token).
	UserID int64 `db:"user_id" json:"user_id" model:"one_to_one=auth_user,on_delete=cascade,related_name=auth_token"`
	// User is the owner, when the token was read with its user
	// (SelectRelated("user")).
	User *auth.User `db:"-" json:"-" drf:"source=user"`
}

// String describes the token without its key.
func (t *Token) String() string { return fmt.Sprintf("token of user %d", t.UserID) }

// LogValue logs the token without its key.
func (t *Token) LogValue() slog.Value {
	return slog.GroupValue(slog.Int64("user_id", t.UserID), slog.Time("created", t.Created))
}

// GenerateKey returns a new key: 20 bytes from crypto/rand, in hexadecimal.
func GenerateKey() string {
	b := make([]byte, 20)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Tokens reads and writes authtoken_token.
type Tokens struct {
	// DB is the database holding authtoken_token and auth_user.
	DB *sqlx.DB
}

// CheckAuthenticator makes the tokens' source over DB when a view that
// authenticates with them is registered (request.AuthenticatorChecker),
// which installs Token on DB: deleting a user then deletes its token, as
// Django's installed authtoken app does, before any token has been read.
func (s *Tokens) CheckAuthenticator() error {
	_, err := tables.Of[Token](s.DB)
	return err
}

// GetOrCreate returns the user's token, creating it when there is none;
// created reports which (Token.objects.get_or_create(user=user)).
// Concurrent calls for one user agree on one token: the losers of the
// insert race read the winner's row.
func (s *Tokens) GetOrCreate(ctx context.Context, userID int64) (tok *Token, created bool, err error) {
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return nil, false, err
	}
	tok = newToken(userID)
	if created, err = src.GetOrCreate(ctx, tok, "user"); err != nil {
		return nil, false, err
	}
	return tok, created, nil
}

// newToken is a new token of userID, not yet stored.
func newToken(userID int64) *Token {
	return &Token{Key: GenerateKey(), Created: time.Now().UTC().Truncate(time.Microsecond), UserID: userID}
}

// ofUser is the condition of the tokens of userID.
func ofUser(userID int64) queryset.Q {
	return queryset.Lookup("user", query.Exact, strconv.FormatInt(userID, 10))
}

// Regenerate replaces the user's token (if any) with a new one, in one
// transaction, as `drf_create_token -r` does.
func (s *Tokens) Regenerate(ctx context.Context, userID int64) (*Token, error) {
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return nil, err
	}
	tok := newToken(userID)
	err = store.Atomic(ctx, s.DB, func(ctx context.Context) error {
		if _, err := src.Match(ofUser(userID)).DeleteAll(ctx); err != nil {
			return err
		}
		return src.Insert(ctx, tok)
	})
	if err != nil {
		return nil, err
	}
	return tok, nil
}

// ForUser returns the user's token, or ErrNotFound.
func (s *Tokens) ForUser(ctx context.Context, userID int64) (*Token, error) {
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return nil, err
	}
	toks, err := src.Match(ofUser(userID)).Slice(ctx, 0, 1)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, ErrNotFound
	}
	return toks[0], nil
}

// Delete removes the token with the given key; ErrNotFound if there is none.
func (s *Tokens) Delete(ctx context.Context, key string) error {
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return err
	}
	n, err := src.Match(queryset.Lookup("key", query.Exact, key)).DeleteAll(ctx)
	if err == nil && n == 0 {
		return ErrNotFound
	}
	return err
}

// Get returns the token with the given key and its user, or ErrNotFound,
// as DRF's TokenAuthentication reads it (select_related("user")). The
// key is found through the primary key and then compared in constant
// time.
func (s *Tokens) Get(ctx context.Context, key string) (*Token, error) {
	if !store.StorableText(key) {
		return nil, ErrNotFound
	}
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return nil, err
	}
	tok, err := src.SelectRelated("user").Get(ctx, "key", key)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(tok.Key), []byte(key)) != 1 {
		return nil, ErrNotFound
	}
	tok.User.BindDB(s.DB)
	return tok, nil
}

// LookupToken implements authentication.TokenStore: the owner and the
// *Token of key, or a nil user when no token has that key.
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

// List returns up to limit tokens with their users, newest first, after
// skipping offset, and the number of tokens in all.
func (s *Tokens) List(ctx context.Context, limit, offset int) ([]*Token, int, error) {
	src, err := tables.Of[Token](s.DB)
	if err != nil {
		return nil, 0, err
	}
	total, err := src.Count(ctx)
	if err != nil {
		return nil, 0, err
	}
	toks, err := src.SelectRelated("user").OrderBy(query.Order{Field: "created", Desc: true}, query.Order{Field: "user_id", Desc: true}).Slice(ctx, offset, limit)
	if err != nil {
		return nil, 0, err
	}
	for _, t := range toks {
		t.User.BindDB(s.DB)
	}
	return toks, total, nil
}

// CreateOnUserCreation registers a hook on users that gives every user
// they create from now on a token, in the creating transaction (DRF's
// post_save receiver). It is opt-in: call it once at start-up.
func CreateOnUserCreation(users *auth.Users) {
	users.OnCreate(func(ctx context.Context, _ *sqlx.Tx, u *auth.User) error {
		src, err := tables.Of[Token](users.DB)
		if err != nil {
			return err
		}
		return src.Insert(ctx, newToken(u.ID))
	})
}

// Backfill gives a token to every user who has none and returns how many
// it created.
func (s *Tokens) Backfill(ctx context.Context) (int, error) {
	users, err := tables.Of[auth.User](s.DB)
	if err != nil {
		return 0, err
	}
	without, err := users.Match(queryset.Lookup("auth_token", query.IsNull, "true")).OrderBy(query.Order{Field: "id"}).Slice(ctx, 0, -1)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range without {
		_, created, err := s.GetOrCreate(ctx, u.ID)
		if err != nil {
			return n, err
		}
		if created {
			n++
		}
	}
	return n, nil
}
