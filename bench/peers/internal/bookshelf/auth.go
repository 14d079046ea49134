package bookshelf

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"unicode/utf8"
)

// AuthError is a refused token, answered 403 with DRF's message (the
// sample's first scheme is Session, which has no WWW-Authenticate
// challenge, so DRF answers 403 rather than 401).
type AuthError struct{ Detail string }

func (e *AuthError) Error() string { return e.Detail }

// Authenticate is DRF's TokenAuthentication on an Authorization header:
// no user and no error when the header is not a token's; the token's user
// when it is a valid token of an active user; an *AuthError otherwise.
func (s *Store) Authenticate(ctx context.Context, header string) (*User, error) {
	f := strings.Fields(header)
	if len(f) == 0 || !strings.EqualFold(f[0], "Token") {
		return nil, nil
	}
	switch {
	case len(f) == 1:
		return nil, &AuthError{"Invalid token header. No credentials provided."}
	case len(f) > 2:
		return nil, &AuthError{"Invalid token header. Token string should not contain spaces."}
	case !utf8.ValidString(f[1]):
		return nil, &AuthError{"Invalid token header. Token string should not contain invalid characters."}
	}
	t, err := s.TokenWithUser(ctx, f[1])
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &AuthError{"Invalid token."}
	}
	if err != nil {
		return nil, err
	}
	if !t.IsActive {
		return nil, &AuthError{"User inactive or deleted."}
	}
	return &t.User, nil
}
