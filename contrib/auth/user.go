// Package auth is Django's django.contrib.auth user model on Django's own
// auth_user table: users, their passwords in the format of every Django
// password hasher (PBKDF2, Argon2, bcrypt, scrypt) with Django's upgrade
// on login, authentication with ModelBackend's rules, and the migration
// that creates the table.
package auth

import (
	"errors"
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-drf/drf/framework/request"
)

// User is one row of Django's auth_user table.
type User struct {
	// ID is the primary key.
	ID int64 `db:"id" json:"id"`
	// Password is the encoded hash ("pbkdf2_sha256$...", "argon2$..."), or
	// "!..." when unusable; never serialised.
	Password string `db:"password" json:"-"`
	// LastLogin is when the user last logged in, nil if never.
	LastLogin *time.Time `db:"last_login" json:"last_login"`
	// Superuser grants every permission.
	Superuser bool `db:"is_superuser" json:"is_superuser"`
	// Username is unique and case-sensitive.
	Username string `db:"username" json:"username"`
	// FirstName is the given name, often "".
	FirstName string `db:"first_name" json:"first_name"`
	// LastName is the family name, often "".
	LastName string `db:"last_name" json:"last_name"`
	// Email is the address, often "".
	Email string `db:"email" json:"email"`
	// Staff marks users who may use the admin (DRF's IsAdminUser).
	Staff bool `db:"is_staff" json:"is_staff"`
	// Active users may log in; an inactive user never authenticates.
	Active bool `db:"is_active" json:"is_active"`
	// DateJoined is when the user was created, in UTC.
	DateJoined time.Time `db:"date_joined" json:"date_joined"`
}

var _ request.User = (*User)(nil)

// GetUsername returns the username.
func (u *User) GetUsername() string { return u.Username }

// IsAuthenticated returns true: a User is always a real, logged-in record.
func (u *User) IsAuthenticated() bool { return true }

// IsActive reports whether the user may log in.
func (u *User) IsActive() bool { return u.Active }

// IsStaff reports whether the user is staff.
func (u *User) IsStaff() bool { return u.Staff }

// IsSuperuser reports whether the user has every permission.
func (u *User) IsSuperuser() bool { return u.Superuser }

// utc puts the times read from the database in UTC.
func (u *User) utc() {
	u.DateJoined = u.DateJoined.UTC()
	if u.LastLogin != nil {
		t := u.LastLogin.UTC()
		u.LastLogin = &t
	}
}

// MaxUsernameLength is auth_user.username's varchar(150).
const MaxUsernameLength = 150

// ValidateUsername applies the rules of Django's username field: not blank,
// at most 150 characters, only letters, digits and @ . + - _. The error
// carries Django's message.
func ValidateUsername(name string) error {
	if name == "" {
		return errors.New("This field cannot be blank.")
	}
	if n := utf8.RuneCountInString(name); n > MaxUsernameLength {
		return fmt.Errorf("Ensure this value has at most %d characters (it has %d).", MaxUsernameLength, n)
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_' && r != '@' && r != '.' && r != '+' && r != '-' {
			return errors.New("Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.")
		}
	}
	return nil
}
