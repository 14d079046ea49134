package framework

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// PermissionsUser is a request.User that has Django's permissions (what
// Django's PermissionsMixin gives a user model). contrib/auth's User
// implements it over Django's permission tables; the Django permission
// classes below ask it.
type PermissionsUser interface {
	request.User
	// IsSuperuser reports whether the user has every permission (when
	// active).
	IsSuperuser() bool
	// HasPerms reports whether the user has every one of perms, each
	// "app_label.codename", as Django's user.has_perms(perms) answers it
	// with the ModelBackend: an active superuser has all, an inactive
	// user none, others their own and their groups' permissions.
	HasPerms(ctx context.Context, perms ...string) (bool, error)
}

// ObjectPermissionBackend answers a user's permissions on one object, as
// an object-permission authentication backend of Django does (such as
// django-guardian's has_perm(user, perm, obj)). Django's ModelBackend
// grants none on objects: without a backend, DjangoObjectPermissions lets
// only active superusers act on objects that need a permission.
type ObjectPermissionBackend interface {
	// HasObjectPerms reports whether u has every one of perms
	// ("app_label.codename") on obj, the object the view retrieved.
	HasObjectPerms(r *request.Request, u request.User, perms []string, obj any) (bool, error)
}

// PermissionChecker is implemented by permissions that can tell, when a
// view is registered, that their configuration could not work (a Django
// model permission that names no model): API.Handle refuses the view with
// the error.
type PermissionChecker interface {
	CheckPermission() error
}

// DefaultPermsMap is DRF's perms_map of DjangoModelPermissions and
// DjangoObjectPermissions: the permissions each method needs, with
// %(app_label)s and %(model_name)s standing for the model's. A method
// missing from the map is refused with 405.
var DefaultPermsMap = map[string][]string{
	"GET":     {},
	"OPTIONS": {},
	"HEAD":    {},
	"POST":    {"%(app_label)s.add_%(model_name)s"},
	"PUT":     {"%(app_label)s.change_%(model_name)s"},
	"PATCH":   {"%(app_label)s.change_%(model_name)s"},
	"DELETE":  {"%(app_label)s.delete_%(model_name)s"},
}

// DjangoModelPermissions is DRF's DjangoModelPermissions: the user must be
// authenticated, and for each method have the model's permissions of
// PermsMap (POST add, PUT and PATCH change, DELETE delete; reads none),
// as Django's auth tables record them. It is checked before the view
// looks anything up, so a user without the permission gets 403 even for
// a missing object.
//
//	Permissions: framework.Permissions(framework.DjangoModelPermissions{AppLabel: "bookshelf", ModelName: "book"})
type DjangoModelPermissions struct {
	// AppLabel is the model's Django app label (its _meta.app_label),
	// e.g. "bookshelf"; required.
	AppLabel string
	// ModelName is the model's lower-case name (its _meta.model_name),
	// e.g. "book"; required.
	ModelName string
	// PermsMap overrides DefaultPermsMap (DRF's perms_map).
	PermsMap map[string][]string
}

// HasPermission applies DRF's rule.
func (p DjangoModelPermissions) HasPermission(r *request.Request, _ *View) (bool, error) {
	return modelPerms(r, p, true)
}

// CheckPermission refuses a permission that names no model.
func (p DjangoModelPermissions) CheckPermission() error { return p.check("DjangoModelPermissions") }

// DjangoModelPermissionsOrAnonReadOnly is DRF's
// DjangoModelPermissionsOrAnonReadOnly: DjangoModelPermissions that lets
// anonymous requests through for the methods that need no permission
// (reads).
type DjangoModelPermissionsOrAnonReadOnly DjangoModelPermissions

// HasPermission applies DRF's rule.
func (p DjangoModelPermissionsOrAnonReadOnly) HasPermission(r *request.Request, _ *View) (bool, error) {
	return modelPerms(r, DjangoModelPermissions(p), false)
}

// CheckPermission refuses a permission that names no model.
func (p DjangoModelPermissionsOrAnonReadOnly) CheckPermission() error {
	return DjangoModelPermissions(p).check("DjangoModelPermissionsOrAnonReadOnly")
}

// DjangoObjectPermissions is DRF's DjangoObjectPermissions: the model
// permissions of DjangoModelPermissions for the request, then, on each
// object a generic view retrieves, the same permissions on that object as
// Backend grants them. A user without them on an object gets 404 when
// they may not read it either (or the request reads), else 403.
type DjangoObjectPermissions struct {
	DjangoModelPermissions
	// Backend answers the permissions on objects; nil grants them to
	// active superusers only, as Django's ModelBackend alone does.
	Backend ObjectPermissionBackend
}

// CheckPermission refuses a permission that names no model.
func (p DjangoObjectPermissions) CheckPermission() error {
	return p.check("DjangoObjectPermissions")
}

// HasObjectPermission applies DRF's rule on obj.
func (p DjangoObjectPermissions) HasObjectPermission(r *request.Request, _ *View, obj any) (bool, error) {
	perms, err := p.required(r.Method)
	if err != nil {
		return false, err
	}
	if ok, err := p.objectPerms(r, perms, obj); ok || err != nil {
		return ok, err
	}
	if IsSafeMethod(r.Method) {
		return false, exceptions.NotFound()
	}
	read, err := p.required(http.MethodGet)
	if err != nil {
		return false, err
	}
	ok, err := p.objectPerms(r, read, obj)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, exceptions.NotFound()
	}
	return false, nil
}

// objectPerms is Django's user.has_perms(perms, obj).
func (p DjangoObjectPermissions) objectPerms(r *request.Request, perms []string, obj any) (bool, error) {
	if len(perms) == 0 {
		return true, nil
	}
	u := r.User()
	if pu, ok := u.(PermissionsUser); ok && pu.IsActive() && pu.IsSuperuser() {
		return true, nil
	}
	if p.Backend == nil {
		return false, nil
	}
	return p.Backend.HasObjectPerms(r, u, perms, obj)
}

// check refuses a configuration that names no model.
func (p DjangoModelPermissions) check(kind string) error {
	if p.AppLabel == "" || p.ModelName == "" {
		return fmt.Errorf("%s needs the model's AppLabel and ModelName (e.g. \"bookshelf\" and \"book\"), got %q and %q", kind, p.AppLabel, p.ModelName)
	}
	if p.ModelName != strings.ToLower(p.ModelName) {
		return fmt.Errorf("%s: ModelName %q must be lower-case, as Django's model_name", kind, p.ModelName)
	}
	return nil
}

// required is DRF's get_required_permissions: the method's permissions
// for the model, or 405 for a method the map does not list.
func (p DjangoModelPermissions) required(method string) ([]string, error) {
	m := p.PermsMap
	if m == nil {
		m = DefaultPermsMap
	}
	templates, ok := m[method]
	if !ok {
		return nil, exceptions.MethodNotAllowed(method)
	}
	repl := strings.NewReplacer("%(app_label)s", p.AppLabel, "%(model_name)s", p.ModelName)
	perms := make([]string, len(templates))
	for i, t := range templates {
		perms[i] = repl.Replace(t)
	}
	return perms, nil
}

// errNoPermissions reports a user type that cannot answer permissions.
var errNoPermissions = errors.New("does not implement framework.PermissionsUser")

// modelPerms is DRF's DjangoModelPermissions.has_permission, anonymous
// users refused when authenticatedOnly.
func modelPerms(r *request.Request, p DjangoModelPermissions, authenticatedOnly bool) (bool, error) {
	u := r.User()
	if u == nil || (!u.IsAuthenticated() && authenticatedOnly) {
		return false, nil
	}
	perms, err := p.required(r.Method)
	if err != nil {
		return false, err
	}
	if len(perms) == 0 {
		// Django's has_perms of no permission: all([]).
		return true, nil
	}
	pu, ok := u.(PermissionsUser)
	if !ok {
		if !u.IsAuthenticated() {
			// The anonymous user has no permission.
			return false, nil
		}
		return false, fmt.Errorf("framework: the user of type %T %w", u, errNoPermissions)
	}
	return pu.HasPerms(r.Context(), perms...)
}
