package framework_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// permUser is a user type with Django's permissions held in memory, as
// a user model other than contrib/auth's may hold them.
type permUser struct {
	name             string
	active, superuse bool
	perms            []string
}

func (u permUser) GetUsername() string   { return u.name }
func (u permUser) IsAuthenticated() bool { return true }
func (u permUser) IsActive() bool        { return u.active }
func (u permUser) IsStaff() bool         { return false }
func (u permUser) IsSuperuser() bool     { return u.superuse }
func (u permUser) HasPerms(_ context.Context, perms ...string) (bool, error) {
	if u.active && u.superuse {
		return true, nil
	}
	for _, p := range perms {
		if !u.active || !slices.Contains(u.perms, p) {
			return false, nil
		}
	}
	return true, nil
}

// permScheme authenticates X-User: NAME as the user of that name in
// users, or a user type without permissions for "plain".
type permScheme struct{ users map[string]permUser }

func (s permScheme) Authenticate(r *request.Request) (request.User, any, error) {
	name := r.Header.Get("X-User")
	switch {
	case name == "":
		return nil, nil, nil
	case name == "plain":
		return user{name}, nil, nil
	}
	return s.users[name], nil, nil
}

var permUsers = permScheme{users: map[string]permUser{
	"reader": {name: "reader", active: true},
	"adder":  {name: "adder", active: true, perms: []string{"shop.add_item"}},
	"editor": {name: "editor", active: true, perms: []string{"shop.change_item", "shop.delete_item"}},
	"root":   {name: "root", active: true, superuse: true},
	"asleep": {name: "asleep", superuse: true},
}}

// modelView answers every method the perms map lists, after the
// permissions.
func modelView(p framework.Permission) framework.View {
	ok := func(*framework.View, *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]bool{"ok": true}), nil
	}
	return framework.View{Authentication: framework.Authenticators(permUsers), Permissions: framework.Permissions(p),
		Get: ok, Post: ok, Put: ok, Patch: ok, Delete: ok}
}

// TestDjangoModelPermissionsAsDRF: DjangoModelPermissions asks for the
// method's model permission (reads need none), refuses anonymous users
// (403 Authentication credentials were not provided. without a
// challenge), and answers 405 for a method its map does not list; the
// OrAnonReadOnly variant lets anonymous reads through.
func TestDjangoModelPermissionsAsDRF(t *testing.T) {
	item := framework.DjangoModelPermissions{AppLabel: "shop", ModelName: "item"}
	model, anonRead := apitest.View(modelView(item)), apitest.View(modelView(framework.DjangoModelPermissionsOrAnonReadOnly(item)))
	const notProvided, denied = "Authentication credentials were not provided.", "You do not have permission to perform this action."
	for _, c := range []struct {
		anonRead     bool
		method, user string
		status       int
		detail       string
	}{
		{false, "GET", "", 403, notProvided},
		{false, "POST", "", 403, notProvided},
		{false, "GET", "reader", 200, ""},
		{false, "HEAD", "reader", 200, ""},
		{false, "OPTIONS", "reader", 200, ""},
		{false, "POST", "reader", 403, denied},
		{false, "POST", "adder", 200, ""},
		{false, "PUT", "adder", 403, denied},
		{false, "PUT", "editor", 200, ""},
		{false, "PATCH", "editor", 200, ""},
		{false, "DELETE", "editor", 200, ""},
		{false, "DELETE", "root", 200, ""},
		{false, "POST", "asleep", 403, denied},
		{false, "TRACE", "editor", 405, `Method "TRACE" not allowed.`},
		{false, "TRACE", "", 403, notProvided},
		{false, "GET", "plain", 200, ""},
		{true, "GET", "", 200, ""},
		{true, "POST", "", 403, notProvided},
		{true, "POST", "adder", 200, ""},
		{true, "DELETE", "adder", 403, denied},
	} {
		h := model
		if c.anonRead {
			h = anonRead
		}
		headers := map[string]string{}
		if c.user != "" {
			headers["X-User"] = c.user
		}
		resp, body := do(t, h, c.method, "/", headers, "")
		if resp.Status != c.status || (c.detail != "" && body["detail"] != c.detail) {
			t.Errorf("anon-read %v, %s by %q: %d %s, want %d %q", c.anonRead, c.method, c.user, resp.Status, resp.Body, c.status, c.detail)
		}
	}
	// A user type that cannot answer Django's permissions is an error,
	// not a permission.
	if resp, _ := do(t, model, "POST", "/", map[string]string{"X-User": "plain"}, ""); resp.Status != 500 {
		t.Errorf("POST by a user without permissions: %d %s", resp.Status, resp.Body)
	}
}

// grants is an object-permission backend: user name -> object -> perms.
type grants map[string]map[string][]string

func (g grants) HasObjectPerms(_ *request.Request, u request.User, perms []string, obj any) (bool, error) {
	have := g[u.GetUsername()][*obj.(*string)]
	for _, p := range perms {
		if !slices.Contains(have, p) {
			return false, nil
		}
	}
	return true, nil
}

// TestDjangoObjectPermissionsAsDRF: DjangoObjectPermissions asks for the
// model permissions first, then, on the object, the backend for the
// method's permissions: without them, a read or a user who may not read
// the object gets 404, one who may read it 403; an active superuser has
// them all.
func TestDjangoObjectPermissionsAsDRF(t *testing.T) {
	p := framework.DjangoObjectPermissions{
		DjangoModelPermissions: framework.DjangoModelPermissions{AppLabel: "shop", ModelName: "item",
			PermsMap: map[string][]string{"GET": {"%(app_label)s.view_%(model_name)s"}, "PATCH": {"%(app_label)s.change_%(model_name)s"}}},
		Backend: grants{
			"viewer": {"a": {"shop.view_item"}},
			"editor": {"a": {"shop.view_item"}, "b": {"shop.change_item"}},
		},
	}
	model := []string{"shop.view_item", "shop.change_item"}
	scheme := permScheme{users: map[string]permUser{
		"viewer": {name: "viewer", active: true, perms: model},
		"editor": {name: "editor", active: true, perms: model},
		"nobody": {name: "nobody", active: true},
		"root":   {name: "root", active: true, superuse: true},
		"asleep": {name: "asleep", superuse: true},
	}}
	ok := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		obj := strings.Trim(r.URL.Path, "/")
		if err := v.CheckObjectPermissions(r, &obj); err != nil {
			return nil, err
		}
		return framework.OK(map[string]string{"object": obj}), nil
	}
	h := apitest.View(framework.View{Authentication: framework.Authenticators(scheme), Permissions: framework.Permissions(p), Get: ok, Patch: ok})
	for _, c := range []struct {
		method, path, user string
		status             int
	}{
		{"GET", "/a/", "viewer", 200},
		{"GET", "/b/", "viewer", 404},
		{"PATCH", "/a/", "viewer", 403},
		{"PATCH", "/b/", "viewer", 404},
		{"PATCH", "/b/", "editor", 200},
		{"PATCH", "/a/", "editor", 403},
		{"GET", "/a/", "nobody", 403},
		{"PATCH", "/b/", "root", 200},
		{"GET", "/b/", "asleep", 403},
		{"DELETE", "/a/", "viewer", 405},
	} {
		resp, _ := do(t, h, c.method, c.path, map[string]string{"X-User": c.user}, "")
		if resp.Status != c.status {
			t.Errorf("%s %s by %s: %d %s, want %d", c.method, c.path, c.user, resp.Status, resp.Body, c.status)
		}
	}
}

// TestDjangoModelPermissionsNeedAModel: a Django permission that names
// no model fails registration with a message naming the view.
func TestDjangoModelPermissionsNeedAModel(t *testing.T) {
	for _, p := range []framework.Permission{
		framework.DjangoModelPermissions{},
		framework.DjangoModelPermissionsOrAnonReadOnly{AppLabel: "shop"},
		framework.DjangoObjectPermissions{DjangoModelPermissions: framework.DjangoModelPermissions{ModelName: "item"}},
		framework.Or(framework.IsAdminUser{}, framework.DjangoModelPermissions{AppLabel: "shop", ModelName: "Item"}),
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, `the view at "/items/"`) || !strings.Contains(msg, "AppLabel") && !strings.Contains(msg, "lower-case") {
					t.Errorf("%#v: Handle panicked with %q", p, msg)
				}
			}()
			framework.NewAPI(nil, framework.Settings{}).Handle("/items/", framework.View{Name: "Items", Permissions: framework.Permissions(p)})
		}()
	}
}
