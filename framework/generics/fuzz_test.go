package generics_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	qt "github.com/go-drf/drf/internal/querysettest"
)

// denyObjects denies every object, as an object permission typed right.
type denyObjects struct{}

func (denyObjects) HasPermission(*request.Request, *framework.View) (bool, error) { return true, nil }

func (denyObjects) HasObjectPermission(*request.Request, *framework.View, any) (bool, error) {
	return false, nil
}

// objectPermissionProbes are object permissions that deny every object
// if they run at all, typed right or wrong in every way the type system
// lets through.
var objectPermissionProbes = []struct {
	name string
	p    framework.Permission
	// mistyped: registration must refuse it.
	mistyped bool
}{
	{"value", denyObjects{}, false},
	{"pointer", &pointerDenyAll{}, false},
	{"ObjectCheck", framework.ObjectCheck[qt.Book](func(*request.Request, *framework.View, *qt.Book) (bool, error) { return false, nil }), false},
	{"pointer method on a value", pointerDenyAll{}, true},
	{"typed", typedDenyAll{}, true},
	{"typed pointer method on a value", pointerTypedDenyAll{}, true},
	{"typed pointer method on a pointer", &pointerTypedDenyAll{}, true},
	{"misspelt", misnamedDenyAll{}, true},
	{"ObjectCheck of another model", framework.ObjectCheck[fuzzOther](func(*request.Request, *framework.View, *fuzzOther) (bool, error) { return false, nil }), true},
	{"nil ObjectCheck", framework.ObjectCheck[qt.Book](nil), true},
}

type fuzzOther struct{ ID int }

// wrap puts p inside And, Or or Not as w says; each keeps p deciding
// every object of an anonymous request.
func wrap(w byte, p framework.Permission) framework.Permission {
	switch w % 4 {
	case 1:
		return framework.And(framework.AllowAny{}, p)
	case 2:
		return framework.Or(framework.IsAdminUser{}, p)
	case 3:
		return framework.Not(framework.Not(p))
	}
	return p
}

// FuzzObjectPermissions registers each object permission probe, wrapped,
// in each place a permission can be registered: the view's own, the
// settings', a router action's, a hand-written view on a generic view's
// policies. Whatever the choice, the registration panics or an anonymous
// GET of the object is denied (403): never an object allowed, never a 500.
func FuzzObjectPermissions(f *testing.F) {
	for probe := range objectPermissionProbes {
		for place := range 4 {
			f.Add(byte(probe), byte(place), byte(probe+place))
		}
	}
	fx := qt.Open(f, 2)
	f.Fuzz(func(t *testing.T, probe, place, wrapper byte) {
		c := objectPermissionProbes[int(probe)%len(objectPermissionProbes)]
		p := wrap(wrapper, c.p)
		s := &server{f: fx}
		registered := func() (msg string) {
			defer func() {
				if r := recover(); r != nil {
					msg = fmt.Sprint(r)
				}
			}()
			g := s.view()
			path := "/books/1/"
			switch place % 4 {
			case 0:
				g.Permissions = framework.Permissions(p)
				s.handle("/books/{pk}/", generics.RetrieveAPIView(g))
			case 1:
				s.s.Permissions = framework.Permissions(p)
				s.handle("/books/{pk}/", generics.RetrieveAPIView(g))
			case 2:
				vs := &generics.ReadOnlyModelViewSet[qt.Book]{GenericAPIView: g}
				var router routers.SimpleRouter
				router.Register("books", vs, "", routers.Action{Name: "Look", Handler: vs.Retrieve, Detail: true, Permissions: framework.Permissions(p)})
				s.api = framework.NewAPI(nil, s.s)
				router.Mount(s.api)
				path = "/books/1/look/"
			case 3:
				g.Permissions = framework.Permissions(p)
				v := g.Policies()
				v.Get = func(v *framework.View, r *request.Request) (*framework.Response, error) {
					b, err := generics.GetObjectOr404(v, r, fx.Books, "id", r.PathValue("pk"))
					if err != nil {
						return nil, err
					}
					if err := v.CheckObjectPermissions(r, b); err != nil {
						return nil, err
					}
					return framework.OK(b.Title), nil
				}
				s.handle("/books/{pk}/", v)
			}
			return path
		}()
		if !strings.HasPrefix(registered, "/") {
			if !c.mistyped {
				t.Fatalf("%s in place %d: registration refused a permission typed right: %s", c.name, place%4, registered)
			}
			return
		}
		if c.mistyped {
			t.Fatalf("%s in place %d: registered", c.name, place%4)
		}
		w := httptest.NewRecorder()
		s.api.ServeHTTP(w, httptest.NewRequest("GET", registered, nil))
		if code := w.Code; code != 403 {
			t.Fatalf("%s in place %d: anonymous GET %s = %d %s, want 403", c.name, place%4, registered, code, w.Body)
		}
	})
}
