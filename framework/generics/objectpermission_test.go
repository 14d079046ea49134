package generics_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/request"
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

// TestMistypedObjectPermissionFailsHandle: an object permission that could
// not run on objects (a typed signature, a pointer method registered on a
// value, even inside And, Or or Not) fails registration with a message
// naming the view, where it used to allow every object.
func TestMistypedObjectPermissionFailsHandle(t *testing.T) {
	for _, c := range []struct {
		name string
		p    framework.Permission
		want string
	}{
		{"typed", typedDenyAll{}, `the view at "/books/{pk}/": permission generics_test.typedDenyAll has HasObjectPermission(*request.Request, *framework.View, *querysettest.Book) (bool, error), which is not ObjectPermission's HasObjectPermission(*request.Request, *framework.View, interface {}) (bool, error)`},
		{"inside Or", framework.Or(framework.IsAdminUser{}, framework.Not(typedDenyAll{})), "permission generics_test.typedDenyAll has HasObjectPermission"},
		{"pointer method on a value", pointerDenyAll{}, "permission generics_test.pointerDenyAll is registered as a value but its HasObjectPermission has a pointer receiver"},
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
				err, _ := recover().(error)
				if err == nil || !strings.Contains(err.Error(), "runs on objects of type *generics_test.other, not *querysettest.Book") {
					t.Errorf("registration panicked with %v", err)
				}
			}()
			s.handle("/books/{pk}/", generics.RetrieveUpdateDestroyAPIView(v))
		})
	}
}
