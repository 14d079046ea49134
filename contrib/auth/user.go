// Package auth is Django's django.contrib.auth on Django's own tables:
// the User, Group and Permission models, users' passwords in the format
// of every Django password hasher (PBKDF2, Argon2, bcrypt, scrypt) with
// Django's upgrade on login, authentication with ModelBackend's rules,
// permissions, and the migrations that create the tables.
package auth

import (
	"errors"
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"golang.org/x/text/unicode/norm"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
)

// User is one row of Django's auth_user table, and Django's
// django.contrib.auth.models.User declared as a model (docs/models.md):
// its fields, defaults, validators, help texts and messages are Django's,
// so a source (queryset.NewSQL[auth.User]) and a serializer of it need no
// SQL and answer as DRF does for Django's User. The Go names of the flags
// are short (Staff for is_staff); their column and JSON names are
// Django's. Password is never serialised.
type User struct {
	// ID is the primary key, an AutoField as Django's.
	ID int64 `db:"id" json:"id" model:"field=AutoField"`
	// Password is the encoded hash ("pbkdf2_sha256$...", "argon2$..."), or
	// "!..." when unusable; never serialised.
	Password string `db:"password" json:"-" model:"max_length=128"`
	// LastLogin is when the user last logged in, nil if never.
	LastLogin *time.Time `db:"last_login" json:"last_login" model:"blank"`
	// Superuser grants every permission.
	Superuser bool `db:"is_superuser" json:"is_superuser" model:"default=false" drf:"label=Superuser status"`
	// Username is unique and case-sensitive.
	Username string `db:"username" json:"username" model:"max_length=150,unique"`
	// FirstName is the given name, often "".
	FirstName string `db:"first_name" json:"first_name" model:"max_length=150,blank"`
	// LastName is the family name, often "".
	LastName string `db:"last_name" json:"last_name" model:"max_length=150,blank"`
	// Email is the address, often "".
	Email string `db:"email" json:"email" model:"field=EmailField,blank" drf:"label=Email address"`
	// Staff marks users who may use the admin (DRF's IsAdminUser).
	Staff bool `db:"is_staff" json:"is_staff" model:"default=false" drf:"label=Staff status"`
	// Active users may log in; an inactive user never authenticates.
	Active bool `db:"is_active" json:"is_active" model:"default=true" drf:"label=Active"`
	// DateJoined is when the user was created, in UTC.
	DateJoined time.Time `db:"date_joined" json:"date_joined"`
	// Groups are the keys of the user's groups (Django's ManyToManyField
	// to Group, through auth_user_groups), read and written by a source;
	// Users does not read them.
	Groups []int32 `json:"groups,omitempty" model:"many_to_many=auth_group,blank,related_name=user_set,related_query_name=user"`
	// UserPermissions are the keys of the user's own permissions
	// (through auth_user_user_permissions), as Groups.
	UserPermissions []int32 `json:"user_permissions,omitempty" model:"many_to_many=auth_permission,blank,related_name=user_set,related_query_name=user"`

	// db is where HasPerm reads the permissions (BindDB), perms their
	// cache.
	db    *sqlx.DB
	perms *permCache
}

// Meta declares Django's User model: app auth, table auth_user, the
// default of date_joined (timezone.now), the username's validator and
// message of a taken name, and the help texts.
func (User) Meta() models.Meta {
	return models.Meta{
		App:      "auth",
		Defaults: map[string]models.Default{"date_joined": models.DefaultFunc(now)},
		HelpText: map[string]string{
			"username":         "Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.",
			"is_superuser":     "Designates that this user has all permissions without explicitly assigning them.",
			"is_staff":         "Designates whether the user can log into this admin site.",
			"is_active":        "Designates whether this user should be treated as active. Unselect this instead of deleting accounts.",
			"groups":           "The groups this user belongs to. A user will get all permissions granted to each of their groups.",
			"user_permissions": "Specific permissions for this user.",
		},
		Validators:    map[string][]models.Validator{"username": {{Check: UnicodeUsernameValidator, Pattern: `^[\w.@+-]+\Z`}}},
		ErrorMessages: map[string]map[string]string{"username": {"unique": "A user with that username already exists."}},
	}
}

// now is Django's timezone.now as stored: UTC, to the microsecond.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

var _ request.User = (*User)(nil)

// GetUsername returns the username.
func (u *User) GetUsername() string { return u.Username }

// PK returns the primary key (Django's user.pk): the user_id of the
// access log (request.Identified).
func (u *User) PK() int64 { return u.ID }

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

// NormalizeUsername is Django's AbstractBaseUser.normalize_username: the
// name in Unicode normalization form NFKC, so that compatibility variants
// of one name ("ａｄｍｉｎ" in fullwidth letters, "ﬁ" a ligature) are that
// one name ("admin", "fi"). Users.Create stores usernames in this form, as
// Django's create_user and create_superuser do; lookups and Authenticate
// take the name as given, as Django's get_by_natural_key and ModelBackend
// do.
func NormalizeUsername(name string) string { return norm.NFKC.String(name) }

// maxUsernameLength is auth_user.username's varchar(150).
const maxUsernameLength = 150

// ValidateUsername applies the rules of Django's username field: not blank,
// at most 150 characters, only letters, digits and @ . + - _. The error
// carries Django's message.
func ValidateUsername(name string) error {
	if name == "" {
		return errors.New("This field cannot be blank.")
	}
	if n := utf8.RuneCountInString(name); n > maxUsernameLength {
		return fmt.Errorf("Ensure this value has at most %d characters (it has %d).", maxUsernameLength, n)
	}
	return UnicodeUsernameValidator(name)
}

// errInvalidUsername is UnicodeUsernameValidator's message.
var errInvalidUsername = errors.New("Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.")

// UnicodeUsernameValidator is Django's validator of the username
// (^[\w.@+-]+\Z): one or more letters, digits and @ . + - _, with
// Django's message.
func UnicodeUsernameValidator(name string) error {
	if name == "" {
		return errInvalidUsername
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_' && r != '@' && r != '.' && r != '+' && r != '-' {
			return errInvalidUsername
		}
	}
	return nil
}
