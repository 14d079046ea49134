package auth

import (
	"context"
	"errors"

	"github.com/go-drf/drf/framework/request"
)

// ModelBackend is Django's ModelBackend over the users: the
// authentication.PasswordChecker of the Basic scheme. Inactive users do
// not match, as with Django's default backend.
type ModelBackend struct {
	// Users holds the users.
	Users *Users
}

// CheckPassword returns the active user with that username and password,
// or nil.
func (b ModelBackend) CheckPassword(ctx context.Context, username, password string) (request.User, error) {
	u, err := b.Users.Authenticate(ctx, username, password)
	if errors.Is(err, ErrInvalidCredentials) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

// RemoteUserBackend is Django's RemoteUserBackend over the users: the authentication.RemoteUserStore of the RemoteUser scheme. A
// user it creates is active, with no usable password, and named exactly as
// the proxy names it: Django's backend creates with get_or_create, which
// does not normalize the name as create_user does, and so finds the user
// again by that name.
type RemoteUserBackend struct {
	// Users holds the users.
	Users *Users
}

// RemoteUser returns the user called username, creating it when asked and
// missing; a concurrent creation of the same user is not an error.
func (b RemoteUserBackend) RemoteUser(ctx context.Context, username string, create bool) (request.User, error) {
	u, err := b.Users.GetByUsername(ctx, username)
	if err == nil {
		return u, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if !create {
		return nil, nil
	}
	u = &User{Username: username, Active: true}
	err = b.Users.insert(ctx, u, username, "")
	if errors.Is(err, ErrUsernameTaken) {
		u, err = b.Users.GetByUsername(ctx, username)
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}
