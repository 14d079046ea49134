package auth

import "github.com/go-drf/drf/framework/request"

// UserOf returns the request's user as a *User (request.user), or nil when
// the request is anonymous or its scheme yields another kind of user.
func UserOf(r *request.Request) *User {
	u, _ := r.User().(*User)
	return u
}
