package request_test

import (
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

type named string

func (n named) GetUsername() string   { return string(n) }
func (n named) IsAuthenticated() bool { return n != "guest" }
func (n named) IsActive() bool        { return true }
func (n named) IsStaff() bool         { return false }

type scheme func(r *request.Request) (request.User, any, error)

func (s scheme) Authenticate(r *request.Request) (request.User, any, error) { return s(r) }

func TestUnauthenticatedDefaultsFromSettings(t *testing.T) {
	r := request.New(httptest.NewRequest("GET", "/", nil), request.Config{
		UnauthenticatedUser:  func() request.User { return named("guest") },
		UnauthenticatedToken: "no-token",
	})
	if r.User().GetUsername() != "guest" || r.Auth() != "no-token" || r.SuccessfulAuthenticator() != nil {
		t.Fatalf("got %v %v", r.User(), r.Auth())
	}
	plain := request.New(httptest.NewRequest("GET", "/", nil), request.Config{})
	if _, ok := plain.User().(request.AnonymousUser); !ok || plain.Auth() != nil {
		t.Fatalf("got %T %v", plain.User(), plain.Auth())
	}
}

func TestPanickingSchemeIsWrappedNotAnonymous(t *testing.T) {
	boom := scheme(func(*request.Request) (request.User, any, error) { panic("nil map") })
	r := request.New(httptest.NewRequest("GET", "/", nil), request.Config{Authenticators: []request.Authenticator{boom}})
	err := r.Authenticate()
	var wrapped *request.WrappedError
	if !errors.As(err, &wrapped) {
		t.Fatalf("err %v", err)
	}
	if r.Authenticate() != err {
		t.Fatal("the result is not cached")
	}
}

func TestAuthenticationFailureIsNotWrapped(t *testing.T) {
	fail := scheme(func(*request.Request) (request.User, any, error) { return nil, nil, exceptions.AuthenticationFailed() })
	r := request.New(httptest.NewRequest("GET", "/", nil), request.Config{Authenticators: []request.Authenticator{fail}})
	if err := r.Authenticate(); !errors.Is(err, exceptions.AuthenticationFailed()) {
		t.Fatalf("err %v", err)
	}
	if r.User().IsAuthenticated() {
		t.Fatal("a failed request is not authenticated")
	}
}

func TestSetUserReplacesAuthentication(t *testing.T) {
	r := request.New(httptest.NewRequest("GET", "/", nil), request.Config{})
	r.SetUser(named("alice"), nil)
	if r.User().GetUsername() != "alice" {
		t.Fatal(r.User())
	}
}
