package auth

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/internal/tables"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
)

// ErrNotFound is returned by lookups of a user that does not exist.
var ErrNotFound = errors.New("auth: user not found")

// ErrInvalidCredentials is Authenticate's one answer for an unknown user, a
// wrong password and an inactive user alike.
var ErrInvalidCredentials = errors.New("auth: invalid credentials")

// ErrUsernameTaken is returned by Create when the username exists already.
var ErrUsernameTaken = errors.New("auth: that username is already taken")

// createHook is a function OnCreate registers.
type createHook = func(ctx context.Context, tx *sqlx.Tx, u *User) error

// Users reads and writes auth_user. The zero value with DB set is ready;
// a Users must not be copied after its first use.
type Users struct {
	// DB is the database holding auth_user.
	DB *sqlx.DB
	// Hashers is PASSWORD_HASHERS: the first hashes new passwords, all
	// verify; nil means DefaultHashers. Tests may use a cheap one to run
	// fast, as Django projects do in their test settings.
	Hashers Hashers
	// Lockout, when set, refuses a username after repeated failed logins
	// (see Lockout); nil, the default, counts none, as Django and DRF.
	Lockout *Lockout

	mu    sync.RWMutex
	hooks []createHook
}

// OnCreate registers fn to run inside every later Create's transaction,
// after the insert (u.ID is set), in registration order (the token app
// uses it to give each new user a token); an error of fn rolls the whole
// creation back.
func (s *Users) OnCreate(fn func(ctx context.Context, tx *sqlx.Tx, u *User) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hooks = append(s.hooks, fn)
}

// Get returns the user with the primary key id, or ErrNotFound.
func (s *Users) Get(ctx context.Context, id int64) (*User, error) {
	return s.get(ctx, "id", strconv.FormatInt(id, 10))
}

// GetByUsername returns the user named exactly name (case-sensitive, as
// Django's get_by_natural_key), or ErrNotFound.
func (s *Users) GetByUsername(ctx context.Context, name string) (*User, error) {
	if !store.StorableText(name) {
		// No stored username is such text, and PostgreSQL refuses to
		// compare with it.
		return nil, ErrNotFound
	}
	return s.get(ctx, "username", name)
}

// get reads the user whose column holds value: its columns alone, as
// Django reads a user until its groups or permissions are asked for.
func (s *Users) get(ctx context.Context, column, value string) (*User, error) {
	src, err := tables.Of[User](s.DB)
	if err != nil {
		return nil, err
	}
	u, err := src.NoPrefetch().Get(ctx, column, value)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	u.utc()
	u.BindDB(s.DB)
	return u, nil
}

// Create inserts u with the password rawPassword (hashed as MakePassword does;
// "" gives an unusable password, as Django's create_user(password=None)),
// the username in NFKC form (NormalizeUsername), DateJoined set to now in
// UTC and the e-mail's domain lower-cased, as Django's create_user stores
// them, then runs the OnCreate hooks in the same transaction. u's flags are
// stored as given: set Active for a user who may log in, or use
// CreateUser. On success u.ID, u.Username, u.Password and u.DateJoined hold
// what was stored. A duplicate username, after normalization ("ａｄｍｉｎ"
// when admin exists), gives ErrUsernameTaken.
func (s *Users) Create(ctx context.Context, u *User, rawPassword string) error {
	return s.insert(ctx, u, NormalizeUsername(u.Username), rawPassword)
}

// insert is Create with the username stored as username.
func (s *Users) insert(ctx context.Context, u *User, username, rawPassword string) error {
	if username == "" {
		return errors.New("auth: the given username must be set")
	}
	row := *u
	row.Username = username
	var err error
	if row.Password, err = s.hash(rawPassword); err != nil {
		return err
	}
	row.DateJoined = now()
	row.Email = normalizeEmail(row.Email)
	if row.LastLogin != nil {
		t := row.LastLogin.UTC().Truncate(time.Microsecond)
		row.LastLogin = &t
	}
	s.mu.RLock()
	hooks := append([]createHook(nil), s.hooks...)
	s.mu.RUnlock()
	src, err := tables.Of[User](s.DB)
	if err != nil {
		return err
	}
	err = store.Atomic(ctx, s.DB, func(ctx context.Context) error {
		// The row is written as row holds it; only its key is read back.
		written := row
		err := src.Insert(ctx, &written)
		if store.IsUniqueViolation(err) {
			return ErrUsernameTaken
		}
		if err != nil {
			return err
		}
		row.ID = written.ID
		tx := store.TxOf(ctx, s.DB)
		for _, h := range hooks {
			if err := h(ctx, tx, &row); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	*u = row
	u.BindDB(s.DB)
	return nil
}

// CreateUser is Django's User.objects.create_user: an active user who is
// neither staff nor superuser.
func (s *Users) CreateUser(ctx context.Context, username, email, rawPassword string) (*User, error) {
	u := &User{Username: username, Email: email, Active: true}
	if err := s.Create(ctx, u, rawPassword); err != nil {
		return nil, err
	}
	return u, nil
}

// CreateSuperuser is Django's User.objects.create_superuser: an active
// staff superuser.
func (s *Users) CreateSuperuser(ctx context.Context, username, email, rawPassword string) (*User, error) {
	u := &User{Username: username, Email: email, Active: true, Staff: true, Superuser: true}
	if err := s.Create(ctx, u, rawPassword); err != nil {
		return nil, err
	}
	return u, nil
}

// SetPassword stores a new hash of rawPassword for u ("" makes the
// password unusable) and updates u.Password; ErrNotFound if u's row is gone.
func (s *Users) SetPassword(ctx context.Context, u *User, rawPassword string) error {
	encoded, err := s.hash(rawPassword)
	if err != nil {
		return err
	}
	if err := s.update(ctx, u.ID, &User{Password: encoded}, "password"); err != nil {
		return err
	}
	u.Password = encoded
	return nil
}

// UpdateLastLogin sets u's last_login to now (UTC), as Django does on login.
func (s *Users) UpdateLastLogin(ctx context.Context, u *User) error {
	t := now()
	if err := s.update(ctx, u.ID, &User{LastLogin: &t}, "last_login"); err != nil {
		return err
	}
	u.LastLogin = &t
	return nil
}

// update sets fields of the user id to their values in values.
func (s *Users) update(ctx context.Context, id int64, values *User, fields ...string) error {
	src, err := tables.Of[User](s.DB)
	if err != nil {
		return err
	}
	n, err := src.Match(queryset.Lookup("id", query.Exact, strconv.FormatInt(id, 10))).UpdateAll(ctx, values, fields...)
	if err == nil && n == 0 {
		return ErrNotFound
	}
	return err
}

// Authenticate returns the active user whose username and password match,
// with Django's ModelBackend rules: an unknown user, a wrong password, an
// unusable password and an inactive user all give ErrInvalidCredentials,
// and each costs one password hash, so that timing does not tell them
// apart. The username is looked up as given, not normalized, as
// ModelBackend does. When the password matches a hash that the first of
// s.Hashers would not write (another algorithm, other parameters), the
// password is rehashed with it and stored, as Django's check_password
// upgrades hashes; u.Password is then the new hash. With s.Lockout set, a
// locked-out username gives a *LockedOutError (which is also
// ErrInvalidCredentials) before the user is looked up or the password
// checked. Other errors are the database's.
func (s *Users) Authenticate(ctx context.Context, username, password string) (*User, error) {
	if s.Lockout == nil {
		return s.authenticate(ctx, username, password)
	}
	if err := s.Lockout.begin(ctx, username); err != nil {
		return nil, err
	}
	u, err := s.authenticate(ctx, username, password)
	if err == nil {
		s.Lockout.succeeded(ctx, username)
	}
	return u, err
}

// authenticate is Authenticate without the lockout.
func (s *Users) authenticate(ctx context.Context, username, password string) (*User, error) {
	u, err := s.GetByUsername(ctx, username)
	if errors.Is(err, ErrNotFound) {
		_, _ = s.Hashers.Make(password)
		return nil, ErrInvalidCredentials
	}
	if err != nil {
		return nil, err
	}
	ok, update := s.Hashers.Check(password, u.Password)
	if !ok {
		return nil, ErrInvalidCredentials
	}
	if update {
		if err := s.upgrade(ctx, u, password); err != nil {
			return nil, err
		}
	}
	if !u.Active {
		return nil, ErrInvalidCredentials
	}
	return u, nil
}

// upgrade stores a hash of password by the first hasher in place of
// u.Password, unless the password was changed meanwhile.
func (s *Users) upgrade(ctx context.Context, u *User, password string) error {
	encoded, err := s.Hashers.Make(password)
	if err != nil {
		return err
	}
	src, err := tables.Of[User](s.DB)
	if err != nil {
		return err
	}
	n, err := src.Match(queryset.Lookup("id", query.Exact, strconv.FormatInt(u.ID, 10)),
		queryset.Lookup("password", query.Exact, u.Password)).UpdateAll(ctx, &User{Password: encoded}, "password")
	if err != nil || n == 0 {
		return err
	}
	u.Password = encoded
	return nil
}

// hash hashes raw with the first hasher, or makes an unusable password when
// raw is "".
func (s *Users) hash(raw string) (string, error) {
	if raw == "" {
		return unusablePassword(), nil
	}
	return s.Hashers.Make(raw)
}

// normalizeEmail lower-cases the domain part, as Django's normalize_email.
func normalizeEmail(email string) string {
	i := strings.LastIndex(email, "@")
	if i < 0 {
		return email
	}
	return email[:i+1] + strings.ToLower(email[i+1:])
}
