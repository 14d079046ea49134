package framework

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// Permission decides whether a request may proceed (has_permission). An
// error is returned as is (e.g. a failed lookup); a denial becomes 401 or
// 403 by the 401/403 rule. A permission may also implement Message() string
// for the denial's detail, and ObjectPermission.
type Permission interface {
	HasPermission(r *request.Request, v *View) (bool, error)
}

// ObjectPermission decides on one object (has_object_permission); generic
// views check it for the object they retrieve.
type ObjectPermission interface {
	HasObjectPermission(r *request.Request, v *View, obj any) (bool, error)
}

// PermissionMessage is implemented by permissions that deny with their
// own message (DRF's message attribute) rather than the default one.
type PermissionMessage interface {
	Message() string
}

// IsSafeMethod reports whether method is one of DRF's SAFE_METHODS: GET,
// HEAD or OPTIONS.
func IsSafeMethod(method string) bool { return pycompat.IsSafeMethod(method) }

// AllowAny allows every request.
type AllowAny struct{}

// HasPermission returns true.
func (AllowAny) HasPermission(*request.Request, *View) (bool, error) { return true, nil }

// IsAuthenticated allows authenticated users only.
type IsAuthenticated struct{}

// HasPermission reports whether the user is authenticated.
func (IsAuthenticated) HasPermission(r *request.Request, _ *View) (bool, error) {
	return r.User().IsAuthenticated(), nil
}

// IsAdminUser allows staff users only.
type IsAdminUser struct{}

// HasPermission reports whether the user is staff.
func (IsAdminUser) HasPermission(r *request.Request, _ *View) (bool, error) {
	u := r.User()
	return u.IsAuthenticated() && u.IsStaff(), nil
}

// IsAuthenticatedOrReadOnly allows safe methods to anyone and the others
// to authenticated users.
type IsAuthenticatedOrReadOnly struct{}

// HasPermission applies the rule.
func (IsAuthenticatedOrReadOnly) HasPermission(r *request.Request, _ *View) (bool, error) {
	return IsSafeMethod(r.Method) || r.User().IsAuthenticated(), nil
}

func objectAllowed(p Permission, r *request.Request, v *View, obj any) (bool, error) {
	op, ok := p.(ObjectPermission)
	if !ok {
		return true, nil
	}
	return op.HasObjectPermission(r, v, obj)
}

// And allows when every permission allows (DRF's p1 & p2).
func And(p ...Permission) Permission { return and(p) }

type and []Permission

func (a and) HasPermission(r *request.Request, v *View) (bool, error) {
	for _, p := range a {
		if ok, err := p.HasPermission(r, v); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

func (a and) HasObjectPermission(r *request.Request, v *View, obj any) (bool, error) {
	for _, p := range a {
		if ok, err := objectAllowed(p, r, v, obj); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// Or allows when any permission allows (DRF's p1 | p2); on objects, one
// permission must allow both the request and the object.
func Or(p ...Permission) Permission { return or(p) }

type or []Permission

func (o or) HasPermission(r *request.Request, v *View) (bool, error) {
	for _, p := range o {
		if ok, err := p.HasPermission(r, v); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

func (o or) HasObjectPermission(r *request.Request, v *View, obj any) (bool, error) {
	for _, p := range o {
		ok, err := p.HasPermission(r, v)
		if err != nil {
			return false, err
		}
		if ok {
			if ok, err = objectAllowed(p, r, v, obj); ok || err != nil {
				return ok, err
			}
		}
	}
	return false, nil
}

// Not inverts a permission (DRF's ~p).
func Not(p Permission) Permission { return not{p} }

type not struct{ p Permission }

func (n not) HasPermission(r *request.Request, v *View) (bool, error) {
	ok, err := n.p.HasPermission(r, v)
	return !ok && err == nil, err
}

func (n not) HasObjectPermission(r *request.Request, v *View, obj any) (bool, error) {
	ok, err := objectAllowed(n.p, r, v, obj)
	return !ok && err == nil, err
}

// ObjectCheck is an object permission typed to a model: it allows every
// request, and runs on each object of type *T that a generic view
// retrieves. An object of another type is an error naming both types (a
// view whose source serves another model), never an allowance.
//
//	framework.ObjectCheck[Snippet](func(r *request.Request, v *framework.View, s *Snippet) (bool, error) {
//		return s.OwnerID == r.User().GetID(), nil
//	})
type ObjectCheck[T any] func(r *request.Request, v *View, obj *T) (bool, error)

// HasPermission returns true: ObjectCheck decides on objects only.
func (ObjectCheck[T]) HasPermission(*request.Request, *View) (bool, error) { return true, nil }

// HasObjectPermission runs the check on obj, which must be a *T.
func (c ObjectCheck[T]) HasObjectPermission(r *request.Request, v *View, obj any) (bool, error) {
	o, ok := obj.(*T)
	if !ok {
		return false, fmt.Errorf("framework: ObjectCheck[%s] got an object of type %T", reflect.TypeFor[T](), obj)
	}
	return c(r, v, o)
}

// ObjectType is *T: generic views refuse, at registration, an
// ObjectCheck of a model other than theirs (CheckObjectType).
func (ObjectCheck[T]) ObjectType() reflect.Type { return reflect.TypeFor[*T]() }

// ObjectTyped is implemented by object permissions that run on objects of
// one type only, as ObjectCheck does.
type ObjectTyped interface {
	// ObjectType is the type of the objects the permission runs on.
	ObjectType() reflect.Type
}

// CheckObjectType reports a permission of ps, here or inside And, Or and
// Not, that runs on objects of a type other than t (ObjectTyped): a view
// whose objects are t would fail on each of them.
func CheckObjectType(ps []Permission, t reflect.Type) error {
	for _, p := range ps {
		var err error
		switch c := p.(type) {
		case and:
			err = CheckObjectType(c, t)
		case or:
			err = CheckObjectType(c, t)
		case not:
			err = CheckObjectType([]Permission{c.p}, t)
		case ObjectTyped:
			if c.ObjectType() != t {
				err = fmt.Errorf("permission %T runs on objects of type %v, not %v", p, c.ObjectType(), t)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// objectPermissionMethod is the method name of ObjectPermission.
const objectPermissionMethod = "HasObjectPermission"

// checkPermission refuses, at registration, a permission that would be
// silently skipped on objects: one with a HasObjectPermission method that
// does not implement ObjectPermission (another signature, or a method of
// the pointer registered as a value), here or inside And, Or and Not;
// and one whose CheckPermission (PermissionChecker) finds it misconfigured.
func checkPermission(p Permission) error {
	if c, ok := p.(PermissionChecker); ok {
		if err := c.CheckPermission(); err != nil {
			return err
		}
	}
	switch c := p.(type) {
	case and:
		return checkPermissions(c)
	case or:
		return checkPermissions(c)
	case not:
		return checkPermission(c.p)
	case ObjectPermission:
		return nil
	}
	t := reflect.TypeOf(p)
	want := reflect.TypeFor[ObjectPermission]()
	if m := reflect.ValueOf(p).MethodByName(objectPermissionMethod); m.IsValid() {
		return fmt.Errorf("permission %s has %s%s, which is not ObjectPermission's %s%s: it would never run on objects (use framework.ObjectCheck[T] for a typed check)",
			t, objectPermissionMethod, strings.TrimPrefix(m.Type().String(), "func"), objectPermissionMethod, signature(want))
	}
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(want) {
		return fmt.Errorf("permission %s is registered as a value but its %s has a pointer receiver: it would never run on objects (register &%s{})",
			t, objectPermissionMethod, t)
	}
	return nil
}

func checkPermissions(ps []Permission) error {
	for _, p := range ps {
		if err := checkPermission(p); err != nil {
			return err
		}
	}
	return nil
}

// signature is the parameters and results of the interface's one method.
func signature(iface reflect.Type) string {
	m, _ := iface.MethodByName(objectPermissionMethod)
	return strings.TrimPrefix(m.Type.String(), "func")
}
