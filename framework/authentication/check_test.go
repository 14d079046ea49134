package authentication_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/request"
)

// A scheme without its store is refused when its view is registered,
// naming the view and the field, where it was a nil dereference (a 500)
// on the first request that reached the store.
func TestSchemeWithoutStoreRefused(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	for _, c := range []struct {
		scheme request.Authenticator
		want   string
	}{
		{authentication.Basic{}, "authentication scheme authentication.Basic: Users is nil"},
		{authentication.Session{}, "authentication scheme authentication.Session: Sessions is nil"},
		{authentication.RemoteUser{}, "authentication scheme authentication.RemoteUser: Users is nil"},
		{authentication.Token{}, "authentication scheme authentication.Token: Tokens is nil"},
	} {
		func() {
			defer func() {
				got, _ := recover().(string)
				if !strings.HasPrefix(got, `framework: the view at "/notes/": `+c.want) {
					t.Errorf("registration panicked with %q, want %q", got, c.want)
				}
			}()
			api.Handle("/notes/", framework.View{Authentication: framework.Authenticators(c.scheme)})
		}()
	}
}
