package request

// User is what a request is authenticated as: a user record, or the
// anonymous user when no scheme authenticates.
type User interface {
	// GetUsername returns the user's name; the anonymous user has none.
	GetUsername() string
	// IsAuthenticated reports whether this is a real user record.
	IsAuthenticated() bool
	// IsActive reports whether the user may log in at all.
	IsActive() bool
	// IsStaff reports whether the user is staff (IsAdminUser).
	IsStaff() bool
}

// AnonymousUser is the default request.user of unauthenticated requests.
type AnonymousUser struct{}

// GetUsername returns "".
func (AnonymousUser) GetUsername() string { return "" }

// IsAuthenticated returns false.
func (AnonymousUser) IsAuthenticated() bool { return false }

// IsActive returns false.
func (AnonymousUser) IsActive() bool { return false }

// IsStaff returns false.
func (AnonymousUser) IsStaff() bool { return false }

// Identified is implemented by users that have a primary key (Django's
// user.pk), which the access log writes as user_id and
// serializers.CurrentUserDefault gives; contrib/auth's User is.
type Identified interface {
	PK() int64
}
