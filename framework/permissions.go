package framework

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// Permission decides whether a request may proceed (has_permission). An
// error is returned as is (e.g. a failed lookup); a denial becomes 401 or
// 403 by the 401/403 rule. A permission may also implement Message() string
// for the denial's detail, Code() string for its code (PermissionCode),
// and ObjectPermission.
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

// PermissionCode is implemented by permissions that deny with their own
// error code (DRF's code attribute, the detail's ErrorDetail.code) rather
// than "permission_denied".
type PermissionCode interface {
	Code() string
}

// permissionDenied is PermissionDenied with p's message and code, when it
// has them.
func permissionDenied(p Permission) *exceptions.APIException {
	e := exceptions.PermissionDenied()
	if m, ok := p.(PermissionMessage); ok && m.Message() != "" {
		e = exceptions.PermissionDenied(m.Message())
	}
	if c, ok := p.(PermissionCode); ok && c.Code() != "" {
		e.Code = c.Code()
	}
	return e
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

// ObjectType is *T: registration refuses an ObjectCheck on a view whose
// objects are of another type (View.ObjectType).
func (ObjectCheck[T]) ObjectType() reflect.Type { return reflect.TypeFor[*T]() }

// CheckPermission refuses a nil check, which would fail on every object.
func (c ObjectCheck[T]) CheckPermission() error {
	if c == nil {
		return fmt.Errorf("permission %T is nil", c)
	}
	return nil
}

// ObjectTyped is implemented by object permissions that run on objects of
// one type only, as ObjectCheck does.
type ObjectTyped interface {
	// ObjectType is the type of the objects the permission runs on.
	ObjectType() reflect.Type
}

// objectTypes appends the types of the ObjectTyped permissions of ps, here
// or inside And, Or and Not, each once.
func objectTypes(ps []Permission, types []reflect.Type) []reflect.Type {
	for _, p := range ps {
		switch c := p.(type) {
		case and:
			types = objectTypes(c, types)
		case or:
			types = objectTypes(c, types)
		case not:
			types = objectTypes([]Permission{c.p}, types)
		case ObjectTyped:
			if !slices.Contains(types, c.ObjectType()) {
				types = append(types, c.ObjectType())
			}
		}
	}
	return types
}

// resolveObjectType checks the typed object permissions (ObjectTyped) of
// the compiled view v against its ObjectType, whichever way they came:
// the view's own, an action's or the settings'. A view that declares no
// ObjectType takes the one type its typed permissions run on; two
// different types are refused, as is a type other than the declared one.
func resolveObjectType(v *View) error {
	types := objectTypes(v.Permissions.items, nil)
	switch {
	case v.ObjectType == nil && len(types) > 1:
		return fmt.Errorf("its object permissions run on objects of types %v and %v: set View.ObjectType to its objects' type, and each permission to it", types[0], types[1])
	case v.ObjectType == nil && len(types) == 1:
		v.ObjectType = types[0]
	case v.ObjectType != nil:
		for _, t := range types {
			if t != v.ObjectType {
				return fmt.Errorf("a permission runs on objects of type %v, not %v", t, v.ObjectType)
			}
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
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(want) {
		return fmt.Errorf("permission %s is registered as a value but its %s has a pointer receiver: it would never run on objects (register &%s{})",
			t, objectPermissionMethod, t)
	}
	// The method set of *t holds the methods of both receivers: a method
	// of the pointer, mistyped, on a permission registered as a value is
	// found too, and so is a name that differs from the interface's in
	// case or a trailing s.
	pt := t
	if t.Kind() != reflect.Pointer {
		pt = reflect.PointerTo(t)
	}
	for i := range pt.NumMethod() {
		m := pt.Method(i)
		if !strings.EqualFold(m.Name, objectPermissionMethod) && !strings.EqualFold(m.Name, objectPermissionMethod+"s") {
			continue
		}
		params := strings.TrimPrefix(m.Type.String(), "func("+pt.String())
		params = "(" + strings.TrimPrefix(params, ", ")
		return fmt.Errorf("permission %s has %s%s, which is not ObjectPermission's %s%s: it would never run on objects (use framework.ObjectCheck[T] for a typed check)",
			t, m.Name, params, objectPermissionMethod, signature(want))
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
