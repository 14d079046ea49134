// Package apikey is djangorestframework-api-key (3.1, or 2.0 at
// compat.DRF314, HasAPIKey.Compatibility) on its own table,
// rest_framework_api_key_apikey: API keys "PREFIX.SECRET" whose hash alone
// is stored, hashed with Django's password hashers as the package hashes
// them, so that a key made by a Django site works on the Go service and
// the other way round; the HasAPIKey permission reading
// "Authorization: Api-Key KEY"; expiry and revocation; and the manage
// commands create_api_key and revoke_api_key.
package apikey

import (
	"context"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/internal/tables"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/random"
)

// Model is the API key model, for auth.PermissionsMigration: its content
// type and default permissions ("Can add API key" ...).
var Model = auth.Model{AppLabel: "rest_framework_api_key", Name: "apikey", VerboseName: "API key"}

// Sizes of keys and of the table's columns.
const (
	// prefixLength is the length of a key's prefix, the part before the
	// dot, by which it is found (and revoked).
	prefixLength = 8
	// secretLength is the length of the secret after the dot.
	secretLength = 32
	// maxNameLength bounds a key's name (varchar(50)).
	maxNameLength = 50
	// maxHashLength bounds hashed_key and the id, PREFIX.HASH
	// (varchar(100)).
	maxHashLength = 100 - prefixLength - 1
)

// alphabet is Django's get_random_string's: letters and digits.
const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// APIKey is djangorestframework-api-key's APIKey model (2.0), one row of
// rest_framework_api_key_apikey. It holds only the key's hash: the key
// itself is shown once, when it is created.
type APIKey struct {
	// ID is the primary key, "PREFIX.HASHED_KEY".
	ID string `db:"id" json:"-" model:"primary_key,max_length=100,editable=false"`
	// Created is when the key was made, in UTC.
	Created time.Time `db:"created" json:"created" model:"auto_now_add,db_index"`
	// Name is free text (at most 50 characters) telling keys apart.
	Name string `db:"name" json:"name" model:"max_length=50"`
	// Revoked keys are refused, for good.
	Revoked bool `db:"revoked" json:"revoked" model:"blank,default=false"`
	// ExpiryDate, when set, is when the key stops working.
	ExpiryDate *time.Time `db:"expiry_date" json:"expiry_date" model:"blank"`
	// HashedKey is the full key hashed by Django's make_password.
	HashedKey string `db:"hashed_key" json:"-" model:"max_length=100,editable=false"`
	// Prefix is the key's first 8 characters, unique.
	Prefix string `db:"prefix" json:"prefix" model:"max_length=8,unique,editable=false"`
}

// String names the key by its name and prefix, never its hash.
func (k *APIKey) String() string { return fmt.Sprintf("API key %q (%s)", k.Name, k.Prefix) }

// HasExpired reports whether the key's expiry date is before now.
func (k *APIKey) HasExpired(now time.Time) bool {
	return k.ExpiryDate != nil && k.ExpiryDate.Before(now)
}

// Errors of Keys.
var (
	// ErrNotFound is returned for a prefix no key has.
	ErrNotFound = errors.New("apikey: no API key with that prefix")
	// ErrInvalidName is returned for a name that is empty or longer than
	// 50 characters.
	ErrInvalidName = errors.New("apikey: the name must be 1 to 50 characters")
)

// Keys reads and writes rest_framework_api_key_apikey.
type Keys struct {
	// DB holds the table (see Migrations).
	DB *sqlx.DB
	// Hashers hash new keys with the first and verify keys of any of
	// them: the Django site's PASSWORD_HASHERS, in its order (nil means
	// auth.DefaultHashers, Django's defaults).
	Hashers auth.Hashers
	// Now is the clock of expiry and of the keys' creation; nil means
	// time.Now.
	Now func() time.Time
}

func (s *Keys) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Create makes a key named name, expiring at expiry (nil: never), and
// returns it with the full key "PREFIX.SECRET", which is not stored and
// cannot be shown again.
func (s *Keys) Create(ctx context.Context, name string, expiry *time.Time) (*APIKey, string, error) {
	if name == "" || utf8.RuneCountInString(name) > maxNameLength || !store.StorableText(name) {
		return nil, "", ErrInvalidName
	}
	for {
		prefix := random.String(prefixLength, alphabet)
		key := prefix + "." + random.String(secretLength, alphabet)
		hashed, err := s.Hashers.Make(key)
		if err != nil {
			return nil, "", err
		}
		if len(hashed) > maxHashLength {
			return nil, "", fmt.Errorf("apikey: the first hasher's hash is %d characters, more than the %d the table holds", len(hashed), maxHashLength)
		}
		k := &APIKey{ID: prefix + "." + hashed, Created: s.now().UTC().Truncate(time.Microsecond), Name: name,
			HashedKey: hashed, Prefix: prefix}
		if expiry != nil {
			t := expiry.UTC().Truncate(time.Microsecond)
			k.ExpiryDate = &t
		}
		err = s.insert(ctx, k)
		if store.IsUniqueViolation(err) {
			// Another key has this prefix (one chance in 62^8): draw again.
			continue
		}
		if err != nil {
			return nil, "", err
		}
		return k, key, nil
	}
}

// insert writes k as a new row. The model's auto_now_add sets Created
// to the time of the insert, as Django's create() does; with a clock of
// its own (Now), the Keys then write the clock's time over it, as Django
// would with an update, in the insert's transaction.
func (s *Keys) insert(ctx context.Context, k *APIKey) error {
	src, err := tables.Of[APIKey](s.DB)
	if err != nil {
		return err
	}
	if s.Now == nil {
		return src.Insert(ctx, k)
	}
	created := k.Created
	return store.Atomic(ctx, s.DB, func(ctx context.Context) error {
		if err := src.Insert(ctx, k); err != nil {
			return err
		}
		k.Created = created
		_, err := src.Match(queryset.Lookup("id", query.Exact, k.ID)).UpdateAll(ctx, k, "created")
		return err
	})
}

// Get returns the key with that prefix, revoked or not, or ErrNotFound.
func (s *Keys) Get(ctx context.Context, prefix string) (*APIKey, error) {
	return s.get(ctx, prefix, false)
}

func (s *Keys) get(ctx context.Context, prefix string, usable bool) (*APIKey, error) {
	if !store.StorableText(prefix) {
		return nil, ErrNotFound
	}
	src, err := tables.Of[APIKey](s.DB)
	if err != nil {
		return nil, err
	}
	src = src.Match(queryset.Lookup("prefix", query.Exact, prefix))
	if usable {
		src = src.Match(queryset.Lookup("revoked", query.Exact, "false"))
	}
	found, err := src.Slice(ctx, 0, 1)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, ErrNotFound
	}
	k := found[0]
	k.Created = k.Created.UTC()
	if k.ExpiryDate != nil {
		t := k.ExpiryDate.UTC()
		k.ExpiryDate = &t
	}
	return k, nil
}

// IsValid reports whether key is a usable key, as the package's
// APIKey.objects.is_valid(key): the key with its prefix (the part before
// the first dot) exists, is not revoked, its hash matches the whole key,
// and it has not expired.
func (s *Keys) IsValid(ctx context.Context, key string) (bool, error) {
	prefix, _, _ := strings.Cut(key, ".")
	k, err := s.get(ctx, prefix, true)
	if errors.Is(err, ErrNotFound) {
		// Hash all the same, so that the time of the answer does not
		// tell a prefix in use from another.
		_, _ = s.Hashers.Check(key, "")
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !s.matches(key, k.HashedKey) {
		return false, nil
	}
	return !k.HasExpired(s.now()), nil
}

// sha512Prefix starts the hashes of the package's Sha512ApiKeyHasher,
// with which version 3 hashes new keys: "sha512$$" and the hexadecimal
// SHA-512 of the key.
const sha512Prefix = "sha512$$"

// matches reports whether key is the key hashed: by the package's
// Sha512ApiKeyHasher (version 3's keys), or by one of the Hashers.
func (s *Keys) matches(key, hashed string) bool {
	if rest, ok := strings.CutPrefix(hashed, sha512Prefix); ok {
		sum := sha512.Sum512([]byte(key))
		return subtle.ConstantTimeCompare([]byte(hex.EncodeToString(sum[:])), []byte(rest)) == 1
	}
	ok, _ := s.Hashers.Check(key, hashed)
	return ok
}

// Revoke revokes the key with that prefix (or the key's full text: the
// part before the dot is its prefix) and returns it; revocation cannot
// be undone. An unknown prefix is ErrNotFound.
func (s *Keys) Revoke(ctx context.Context, prefix string) (*APIKey, error) {
	prefix, _, _ = strings.Cut(prefix, ".")
	k, err := s.Get(ctx, prefix)
	if err != nil {
		return nil, err
	}
	src, err := tables.Of[APIKey](s.DB)
	if err != nil {
		return nil, err
	}
	if _, err := src.Match(queryset.Lookup("prefix", query.Exact, prefix)).UpdateAll(ctx, &APIKey{Revoked: true}, "revoked"); err != nil {
		return nil, err
	}
	k.Revoked = true
	return k, nil
}
