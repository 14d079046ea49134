package generics_test

import (
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	qt "github.com/go-drf/drf/internal/querysettest"
)

// typedDenyAll has HasObjectPermission typed to the model: it is not
// framework.ObjectPermission, so it would never run on objects.
type typedDenyAll struct{}

func (typedDenyAll) HasPermission(*request.Request, *framework.View) (bool, error) { return true, nil }

func (typedDenyAll) HasObjectPermission(*request.Request, *framework.View, *qt.Book) (bool, error) {
	return false, nil
}

// pointerDenyAll implements ObjectPermission on its pointer only.
type pointerDenyAll struct{}

func (pointerDenyAll) HasPermission(*request.Request, *framework.View) (bool, error) {
	return true, nil
}

func (*pointerDenyAll) HasObjectPermission(*request.Request, *framework.View, any) (bool, error) {
	return false, nil
}

// pointerTypedDenyAll has HasObjectPermission typed to the model on its
// pointer: registered as a value, neither mistake alone showed, and every
// object was allowed.
type pointerTypedDenyAll struct{}

func (pointerTypedDenyAll) HasPermission(*request.Request, *framework.View) (bool, error) {
	return true, nil
}

func (*pointerTypedDenyAll) HasObjectPermission(*request.Request, *framework.View, *qt.Book) (bool, error) {
	return false, nil
}

// misnamedDenyAll spells the method HasObjectPermissions.
type misnamedDenyAll struct{}

func (misnamedDenyAll) HasPermission(*request.Request, *framework.View) (bool, error) {
	return true, nil
}

func (misnamedDenyAll) HasObjectPermissions(*request.Request, *framework.View, any) (bool, error) {
	return false, nil
}

// TestMistypedObjectPermissionFailsHandle: an object permission that could
// not run on objects (a typed signature, a pointer method registered on a
// value, both at once, a misspelt name, even inside And, Or or Not) fails
// registration with a message naming the view, where it used to allow
// every object.
func TestMistypedObjectPermissionFailsHandle(t *testing.T) {
	for _, c := range []struct {
		name string
		p    framework.Permission
		want string
	}{
		{"typed", typedDenyAll{}, `the view at "/books/{pk}/": permission generics_test.typedDenyAll has HasObjectPermission(*request.Request, *framework.View, *querysettest.Book) (bool, error), which is not ObjectPermission's HasObjectPermission(*request.Request, *framework.View, interface {}) (bool, error)`},
		{"inside Or", framework.Or(framework.IsAdminUser{}, framework.Not(typedDenyAll{})), "permission generics_test.typedDenyAll has HasObjectPermission"},
		{"pointer method on a value", pointerDenyAll{}, "permission generics_test.pointerDenyAll is registered as a value but its HasObjectPermission has a pointer receiver"},
		{"typed pointer method on a value", pointerTypedDenyAll{}, `the view at "/books/{pk}/": permission generics_test.pointerTypedDenyAll has HasObjectPermission(*request.Request, *framework.View, *querysettest.Book) (bool, error), which is not ObjectPermission's`},
		{"typed pointer method on a pointer", &pointerTypedDenyAll{}, "permission *generics_test.pointerTypedDenyAll has HasObjectPermission(*request.Request, *framework.View, *querysettest.Book)"},
		{"misspelt", framework.And(framework.AllowAny{}, misnamedDenyAll{}), "permission generics_test.misnamedDenyAll has HasObjectPermissions(*request.Request, *framework.View, interface {}) (bool, error)"},
		{"nil ObjectCheck", framework.ObjectCheck[qt.Book](nil), "permission framework.ObjectCheck[github.com/go-drf/drf/internal/querysettest.Book] is nil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t, 2)
			v := s.view()
			v.Permissions = framework.Permissions(c.p)
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, c.want) {
					t.Errorf("Handle panicked with %q, want it to say %q", msg, c.want)
				}
			}()
			s.handle("/books/{pk}/", generics.RetrieveUpdateDestroyAPIView(v))
		})
	}
}

// TestObjectCheckIsTyped: framework.ObjectCheck runs a check typed to the
// model on each object; it denies what it denies.
func TestObjectCheckIsTyped(t *testing.T) {
	s := newServer(t, 4)
	v := s.view()
	v.Permissions = framework.Permissions(framework.ObjectCheck[qt.Book](
		func(r *request.Request, _ *framework.View, b *qt.Book) (bool, error) {
			return framework.IsSafeMethod(r.Method) || b.Owner == r.User().GetUsername(), nil
		}))
	s.handle("/books/{pk}/", generics.RetrieveUpdateDestroyAPIView(v))
	for _, c := range []struct {
		method, path, user, body string
		status                   int
	}{
		{"GET", "/books/1/", "", "", 200},
		{"PATCH", "/books/1/", "alice", `{"title":"mine"}`, 403},
		{"DELETE", "/books/1/", "alice", "", 403},
		{"PATCH", "/books/2/", "alice", `{"title":"mine"}`, 200},
	} {
		if code, _, body := s.do(t, c.method, c.path, c.user, c.body); code != c.status {
			t.Errorf("%s %s as %q = %d %s, want %d", c.method, c.path, c.user, code, body, c.status)
		}
	}
}

// TestSourceOfAnotherModelDoesNotCompile: a generic view of one model
// given a source of another is a compile error (testdata/mismatch), where
// every request answered 500.
func TestSourceOfAnotherModelDoesNotCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	out, err := exec.Command("go", "vet", "./testdata/mismatch").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "does not implement queryset.Source[author]") {
		t.Errorf("go vet ./testdata/mismatch: %v\n%s", err, out)
	}
}

// TestObjectCheckOfAnotherModelFailsRegistration: an ObjectCheck of
// another model, alone or inside And, Or and Not, fails registration
// naming the view and both types, where each object answered 500.
func TestObjectCheckOfAnotherModelFailsRegistration(t *testing.T) {
	type other struct{ ID int }
	check := framework.ObjectCheck[other](func(*request.Request, *framework.View, *other) (bool, error) { return true, nil })
	for name, p := range map[string]framework.Permission{"alone": check, "inside Or and Not": framework.Or(framework.IsAdminUser{}, framework.Not(check))} {
		t.Run(name, func(t *testing.T) {
			s := newServer(t, 2)
			v := s.view()
			v.Permissions = framework.Permissions(p)
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, `the view at "/books/{pk}/": a permission runs on objects of type *generics_test.other, not *querysettest.Book`) {
					t.Errorf("registration panicked with %q", msg)
				}
			}()
			s.handle("/books/{pk}/", generics.RetrieveUpdateDestroyAPIView(v))
		})
	}
}

// TestObjectCheckOfAnotherModelFailsEverywhere: an ObjectCheck of another
// model fails registration wherever it is registered, naming the view and
// both types: the settings' permissions of a generic view, a router
// action's over a model viewset, a hand-written view that declares its
// ObjectType or takes a generic view's policies, and two checks that
// disagree on a hand-written view. Each used to register, and every
// object answered 500.
func TestObjectCheckOfAnotherModelFailsEverywhere(t *testing.T) {
	type other struct{ ID int }
	check := framework.ObjectCheck[other](func(*request.Request, *framework.View, *other) (bool, error) { return true, nil })
	book := framework.ObjectCheck[qt.Book](func(*request.Request, *framework.View, *qt.Book) (bool, error) { return true, nil })
	const mismatch = "a permission runs on objects of type *generics_test.other, not *querysettest.Book"
	for _, c := range []struct {
		name     string
		settings framework.Permission
		mount    func(s *server)
		want     string
	}{
		{"settings", check, func(s *server) {
			s.handle("/books/{pk}/", generics.RetrieveUpdateDestroyAPIView(s.view()))
		}, `the view at "/books/{pk}/": ` + mismatch},
		{"router action", nil, func(s *server) {
			vs := &generics.ModelViewSet[qt.Book]{GenericAPIView: s.view()}
			var router routers.SimpleRouter
			router.Register("books", vs, "",
				routers.Action{Name: "Mark", Handler: vs.Retrieve, Detail: true, Permissions: framework.Permissions(check)})
			s.api = framework.NewAPI(nil, s.s)
			router.Mount(s.api)
		}, mismatch},
		{"hand-written with ObjectType", nil, func(s *server) {
			s.handle("/books/{pk}/", framework.View{ObjectType: reflect.TypeFor[*qt.Book](), Permissions: framework.Permissions(check),
				Get: func(*framework.View, *request.Request) (*framework.Response, error) { return framework.OK("x"), nil }})
		}, `the view at "/books/{pk}/": ` + mismatch},
		{"hand-written on a generic view's policies", nil, func(s *server) {
			g := s.view()
			g.Permissions = framework.Permissions(check)
			v := g.Policies()
			v.Get = func(v *framework.View, r *request.Request) (*framework.Response, error) { return g.RetrieveModel(v, r) }
			s.handle("/books/{pk}/", v)
		}, `the view at "/books/{pk}/": ` + mismatch},
		{"hand-written, two types", nil, func(s *server) {
			s.handle("/books/{pk}/", framework.View{Permissions: framework.Permissions(framework.And(book, check)),
				Get: func(*framework.View, *request.Request) (*framework.Response, error) { return framework.OK("x"), nil }})
		}, "its object permissions run on objects of types *querysettest.Book and *generics_test.other"},
		{"generic view with another ObjectType", nil, func(s *server) {
			g := s.view()
			g.ObjectType = reflect.TypeFor[*other]()
			s.handle("/books/{pk}/", generics.RetrieveAPIView(g))
		}, "has ObjectType *generics_test.other, but its objects are *querysettest.Book"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t, 2)
			if c.settings != nil {
				s.s.Permissions = framework.Permissions(c.settings)
			}
			defer func() {
				msg := fmt.Sprint(recover())
				if !strings.Contains(msg, c.want) {
					t.Errorf("registration panicked with %q, want it to say %q", msg, c.want)
				}
			}()
			c.mount(s)
		})
	}
}

// TestGetObjectOr404OfAnotherType: a hand-written view whose typed object
// permissions run on another type than its lookup's is a server error
// naming both before any object is read, never an object they skip.
func TestGetObjectOr404OfAnotherType(t *testing.T) {
	type other struct{ ID int }
	s := newServer(t, 2)
	s.handle("/books/{pk}/", framework.View{
		Permissions: framework.Permissions(framework.ObjectCheck[other](func(*request.Request, *framework.View, *other) (bool, error) { return true, nil })),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			b, err := generics.GetObjectOr404(v, r, s.f.Books, "id", r.PathValue("pk"))
			if err != nil {
				return nil, err
			}
			if err := v.CheckObjectPermissions(r, b); err != nil {
				return nil, err
			}
			return framework.OK(b.Title), nil
		},
	})
	if code, _, body := s.do(t, "GET", "/books/1/", "", ""); code != 500 || strings.Contains(body, "Book 1") {
		t.Errorf("GET = %d %s, want 500", code, body)
	}
}
