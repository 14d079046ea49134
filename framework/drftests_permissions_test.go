package framework_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_permissions.py, ported: each test method is an
// item named by its class and method, run at both compatibility levels
// with DRF's assertions. Django's users, groups and permissions are the
// test's users (drfPermUser, whose HasPerms answers as Django's
// ModelBackend), authenticated by BasicAuthentication; django-guardian's
// object permissions, which DRF's ObjectPermissionsIntegrationTests
// assign to groups, are the test's ObjectPermissionBackend over the same
// assignments. A detail's code (ErrorDetail.code) is what an exception
// handler sees.

// drfPermBasic is tests/models.py's BasicModel (and BasicPermModel).
type drfPermBasic struct {
	ID   int64  `db:"id" json:"id" drf:"read_only"`
	Text string `db:"text" json:"text" model:"max_length=100"`
}

func (drfPermBasic) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "BasicModel", Table: "tests_basicmodel"}
}

// drfPermUser is a User with its permissions, its groups' included.
type drfPermUser struct {
	name  string
	perms []string
	// groups are the guardian groups the user is in.
	groups []string
}

func (u drfPermUser) GetUsername() string   { return u.name }
func (u drfPermUser) IsAuthenticated() bool { return true }
func (u drfPermUser) IsActive() bool        { return true }
func (u drfPermUser) IsStaff() bool         { return false }
func (u drfPermUser) IsSuperuser() bool     { return false }
func (u drfPermUser) HasPerms(_ context.Context, perms ...string) (bool, error) {
	for _, p := range perms {
		if !slices.Contains(u.perms, p) {
			return false, nil
		}
	}
	return true, nil
}

// drfGuardian is guardian's ObjectPermissionBackend over
// ObjectPermissionsIntegrationTests' assignments: each group's
// permission on the object of id 1.
type drfGuardian map[string]string

func (g drfGuardian) HasObjectPerms(_ *request.Request, u request.User, perms []string, obj any) (bool, error) {
	pu, ok := u.(drfPermUser)
	if !ok || obj.(*drfPermBasic).ID != 1 {
		return false, nil
	}
	for _, p := range perms {
		found := false
		for _, group := range pu.groups {
			found = found || "tests."+g[group] == p
		}
		if !found {
			return false, nil
		}
	}
	return true, nil
}

// drfPermSite is one item's database of BasicModel, its users and its
// API; the users' password is "password".
type drfPermSite struct {
	t     *testing.T
	level framework.Compatibility
	db    *sqlx.DB
	users map[string]drfPermUser
	api   *framework.API
	c     *apitest.Client
	// code is the code of the last error the exception handler saw.
	code string
}

func newDRFPermSite(t *testing.T, level framework.Compatibility, users ...drfPermUser) *drfPermSite {
	t.Helper()
	s := &drfPermSite{t: t, level: level, users: map[string]drfPermUser{}}
	s.db, _ = drfsuite.Open(t)
	s.db.MustExec(`CREATE TABLE "tests_basicmodel" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "text" varchar(100) NOT NULL)`)
	s.db.MustExec(`INSERT INTO "tests_basicmodel" ("text") VALUES ('foo')`)
	for _, u := range users {
		s.users[u.name] = u
	}
	s.api = framework.NewAPI(nil, framework.Settings{Compatibility: level,
		ExceptionHandler: func(err error, v *framework.View, r *request.Request) *framework.Response {
			if api, ok := err.(*exceptions.APIException); ok {
				s.code = api.Code
			}
			return framework.DefaultExceptionHandler(err, v, r)
		}})
	s.c = apitest.New(t, s.api)
	return s
}

// basic is BasicAuthentication over the site's users.
func (s *drfPermSite) basic() authentication.Basic {
	return authentication.Basic{Users: authentication.PasswordCheckerFunc(func(_ context.Context, name, password string) (request.User, error) {
		if u, ok := s.users[name]; ok && password == "password" {
			return u, nil
		}
		return nil, nil
	})}
}

// ignored is a client of an API whose DEFAULT_PERMISSION_CLASSES are
// [DjangoModelPermissions] and whose one view is a router's root, the
// view of DRF's _ignore_model_permissions (DRF's private attribute, which
// APIRootView sets: a view whose model permissions are not checked, as
// IgnoredGetQuerySetListView sets it).
func (s *drfPermSite) ignored() *apitest.Client {
	api := framework.NewAPI(nil, framework.Settings{Compatibility: s.level,
		Authentication: framework.Authenticators(s.basic()), Permissions: framework.Permissions(drfBasicModelPerms)})
	(&routers.DefaultRouter{}).Mount(api)
	c := apitest.New(s.t, api)
	c.Header = http.Header{"Accept": {"application/json"}}
	return c
}

// generic is a GenericAPIView of BasicModel under BasicAuthentication
// and p.
func (s *drfPermSite) generic(p framework.Permission) generics.GenericAPIView[drfPermBasic] {
	return generics.GenericAPIView[drfPermBasic]{
		Source:     queryset.MustSQL[drfPermBasic](s.db, queryset.SQLConfig{}),
		Serializer: serializers.MustNew[drfPermBasic](),
		View: framework.View{Authentication: framework.Authenticators(s.basic()),
			Permissions: framework.Permissions(p)},
	}
}

// credentials is basic_auth_header(username, 'password').
func credentials(username string) string {
	return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(username+":password"))
}

var drfBasicModelPerms = framework.DjangoModelPermissions{AppLabel: "tests", ModelName: "basicmodel"}

// modelPermsSite is ModelPermissionsIntegrationTests' setUp, RootView at
// "/" and InstanceView at "/{pk}".
func modelPermsSite(t *testing.T, level framework.Compatibility) *drfPermSite {
	s := newDRFPermSite(t, level,
		drfPermUser{name: "disallowed"},
		drfPermUser{name: "permitted", perms: []string{"tests.add_basicmodel", "tests.change_basicmodel", "tests.delete_basicmodel"}},
		drfPermUser{name: "updateonly", perms: []string{"tests.change_basicmodel"}})
	g := s.generic(drfBasicModelPerms)
	s.api.Handle("/", generics.ListCreateAPIView(g))
	s.api.Handle("/{pk}", generics.RetrieveUpdateDestroyAPIView(g))
	return s
}

const drfPermJSON = "Content-Type: application/json"

func drfPermStatus(what string, r *apitest.Response, want int) drfsuite.Checks {
	var c drfsuite.Checks
	c.Equal(what+": status_code", r.Status, want)
	return c
}

func modelPermsItem(method string, run func(s *drfPermSite) []string) drfsuite.Item {
	return drfsuite.Item{Name: "ModelPermissionsIntegrationTests." + method, Run: func(t *testing.T, level framework.Compatibility) []string {
		return run(modelPermsSite(t, level))
	}}
}

// actions are the keys of an OPTIONS answer's "actions", nil when it has
// none.
func actions(r *apitest.Response) []string {
	a, ok := r.JSON()["actions"].(map[string]any)
	if !ok {
		return nil
	}
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func optionsItem(method, user string, list, detail []string) drfsuite.Item {
	return modelPermsItem(method, func(s *drfPermSite) []string {
		var c drfsuite.Checks
		r := s.c.Do(http.MethodOptions, "/", "", credentials(user))
		c.Equal("OPTIONS /: status_code", r.Status, 200)
		c.Equal("OPTIONS /: actions", actions(r), list)
		r = s.c.Do(http.MethodOptions, "/1", "", credentials(user))
		c.Equal("OPTIONS /1: status_code", r.Status, 200)
		c.Equal("OPTIONS /1: actions", actions(r), detail)
		return c
	})
}

// objectPermsSite is ObjectPermissionsIntegrationTests' setUp:
// everyone has the model's view, change and delete permissions, and
// readers, writers and deleters the object's; ViewObjectPermissions'
// views at "/" (list) and "/{pk}".
func objectPermsSite(t *testing.T, level framework.Compatibility) *drfPermSite {
	everyone := []string{"tests.view_basicmodel", "tests.change_basicmodel", "tests.delete_basicmodel"}
	s := newDRFPermSite(t, level,
		drfPermUser{name: "fullaccess", perms: everyone, groups: []string{"readers", "writers", "deleters"}},
		drfPermUser{name: "readonly", perms: everyone, groups: []string{"readers"}},
		drfPermUser{name: "writeonly", perms: everyone, groups: []string{"writers"}},
		drfPermUser{name: "deleteonly", perms: everyone, groups: []string{"deleters"}})
	view := []string{"%(app_label)s.view_%(model_name)s"}
	p := framework.DjangoObjectPermissions{
		DjangoModelPermissions: framework.DjangoModelPermissions{AppLabel: "tests", ModelName: "basicmodel", PermsMap: map[string][]string{
			"GET": view, "OPTIONS": view, "HEAD": view,
			"POST":   {"%(app_label)s.add_%(model_name)s"},
			"PUT":    {"%(app_label)s.change_%(model_name)s"},
			"PATCH":  {"%(app_label)s.change_%(model_name)s"},
			"DELETE": {"%(app_label)s.delete_%(model_name)s"},
		}},
		Backend: drfGuardian{"readers": "view_basicmodel", "writers": "change_basicmodel", "deleters": "delete_basicmodel"},
	}
	g := s.generic(p)
	s.api.Handle("/", generics.ListAPIView(g))
	s.api.Handle("/{pk}", generics.RetrieveUpdateDestroyAPIView(g))
	return s
}

func objectPermsItem(method string, run func(s *drfPermSite) []string) drfsuite.Item {
	return drfsuite.Item{Name: "ObjectPermissionsIntegrationTests." + method, Run: func(t *testing.T, level framework.Compatibility) []string {
		return run(objectPermsSite(t, level))
	}}
}

// drfDenyPerm is BasicPerm and BasicObjectPerm, with
// BasicPermWithDetail's message and code when custom.
type drfDenyPerm struct {
	object, custom bool
}

const drfCustomMessage, drfCustomCode = "Custom: You cannot access this resource", "permission_denied_custom"

func (p drfDenyPerm) HasPermission(*request.Request, *framework.View) (bool, error) {
	return p.object, nil
}
func (p drfDenyPerm) HasObjectPermission(*request.Request, *framework.View, any) (bool, error) {
	return !p.object, nil
}
func (p drfDenyPerm) Message() string {
	if p.custom {
		return drfCustomMessage
	}
	return ""
}
func (p drfDenyPerm) Code() string {
	if p.custom {
		return drfCustomCode
	}
	return ""
}

func customPermsItem(method string, p drfDenyPerm) drfsuite.Item {
	return drfsuite.Item{Name: "CustomPermissionsTests." + method, Run: func(t *testing.T, level framework.Compatibility) []string {
		s := newDRFPermSite(t, level, drfPermUser{name: "username"})
		g := s.generic(p)
		s.api.Handle("/{pk}", generics.RetrieveUpdateDestroyAPIView(g))
		r := s.c.Get("/1", credentials("username"))
		var c drfsuite.Checks
		c.Equal("response.status_code", r.Status, 403)
		detail, _ := r.JSON()["detail"].(string)
		if p.custom {
			c.Equal("detail", detail, drfCustomMessage)
			c.Equal("detail.code", s.code, drfCustomCode)
		} else if detail == drfCustomMessage || s.code == drfCustomCode {
			c.Equal("detail, detail.code", [2]string{detail, s.code}, "not the custom ones")
		}
		return c
	}}
}

// drfCounted is a permission of the composition tests whose
// has_permission and has_object_permission are mocked (mock.patch.object)
// to perm and obj, counting their calls; with base set, has_permission
// is base's, not mocked.
type drfCounted struct {
	perm, obj   bool
	base        framework.Permission
	permN, objN *int
}

func newCounted(perm, obj bool, base framework.Permission) drfCounted {
	return drfCounted{perm: perm, obj: obj, base: base, permN: new(int), objN: new(int)}
}

func (c drfCounted) HasPermission(r *request.Request, v *framework.View) (bool, error) {
	if c.base != nil {
		return c.base.HasPermission(r, v)
	}
	*c.permN++
	return c.perm, nil
}

func (c drfCounted) HasObjectPermission(*request.Request, *framework.View, any) (bool, error) {
	*c.objN++
	return c.obj, nil
}

// compose runs composed_perm().has_permission(request, None) (or
// has_object_permission when object) in a view, for the user john or
// the anonymous user.
func compose(t *testing.T, level framework.Compatibility, authenticated, object bool, p framework.Permission) bool {
	t.Helper()
	var got bool
	var err error
	h := apitest.View(framework.View{
		Permissions: framework.Permissions(framework.AllowAny{}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			if object {
				got, err = p.(framework.ObjectPermission).HasObjectPermission(r, v, nil)
			} else {
				got, err = p.HasPermission(r, v)
			}
			return framework.OK("ok"), nil
		},
	}, framework.Settings{Compatibility: level})
	c := apitest.New(t, h)
	if authenticated {
		c.ForceAuthenticate(drfPermUser{name: "john"}, nil)
	}
	if r := c.Get("/1"); r.Status != 200 || err != nil {
		t.Fatalf("%d %s %v", r.Status, r.Body, err)
	}
	return got
}

func compositionItem(method string, authenticated bool, p framework.Permission, want bool) drfsuite.Item {
	return drfsuite.Item{Name: "PermissionsCompositionTests." + method, Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		c.Equal("has_permission", compose(t, level, authenticated, false, p), want)
		return c
	}}
}

// lazinessItem is one of the laziness tests: first op second, then
// second op first, with allow (AllowAny) mocked to true and deny
// (IsAuthenticated) to false; want are the calls of (allow, deny) in
// each order.
func lazinessItem(method string, object bool, op func(...framework.Permission) framework.Permission, result bool, want [2][2]int) drfsuite.Item {
	return drfsuite.Item{Name: "PermissionsCompositionTests." + method, Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		for i := range 2 {
			var allow, deny drfCounted
			if object {
				allow, deny = newCounted(false, true, framework.AllowAny{}), newCounted(false, false, framework.IsAuthenticated{})
			} else {
				allow, deny = newCounted(true, false, nil), newCounted(false, false, nil)
			}
			p := op(allow, deny)
			if i == 1 {
				p = op(deny, allow)
			}
			c.Equal("hasperm", compose(t, level, false, object, p), result)
			calls := [2]int{*allow.permN, *deny.permN}
			if object {
				calls = [2]int{*allow.objN, *deny.objN}
			}
			c.Equal("mock_allow, mock_deny call counts", calls, want[i])
		}
		return c
	}}
}

var drfPermissionsItems = []drfsuite.Item{
	modelPermsItem("test_has_create_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("POST /", s.c.Post("/", `{"text":"foobar"}`, drfPermJSON, credentials("permitted")), 201)
	}),
	modelPermsItem("test_get_queryset_has_create_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("POST /", s.c.Post("/", `{"text":"foobar"}`, drfPermJSON, credentials("permitted")), 201)
	}),
	modelPermsItem("test_has_put_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("PUT /1", s.c.Do(http.MethodPut, "/1", `{"text":"foobar"}`, drfPermJSON, credentials("permitted")), 200)
	}),
	modelPermsItem("test_has_delete_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("DELETE /1", s.c.Do(http.MethodDelete, "/1", "", credentials("permitted")), 204)
	}),
	modelPermsItem("test_does_not_have_create_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("POST /", s.c.Post("/", `{"text":"foobar"}`, drfPermJSON, credentials("disallowed")), 403)
	}),
	modelPermsItem("test_does_not_have_put_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("PUT /1", s.c.Do(http.MethodPut, "/1", `{"text":"foobar"}`, drfPermJSON, credentials("disallowed")), 403)
	}),
	modelPermsItem("test_does_not_have_delete_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("DELETE /1", s.c.Do(http.MethodDelete, "/1", "", credentials("disallowed")), 403)
	}),
	optionsItem("test_options_permitted", "permitted", []string{"POST"}, []string{"PUT"}),
	optionsItem("test_options_disallowed", "disallowed", nil, nil),
	optionsItem("test_options_updateonly", "updateonly", nil, []string{"PUT"}),
	modelPermsItem("test_empty_view_does_not_assert", func(s *drfPermSite) []string {
		s.db.MustExec(`DELETE FROM "tests_basicmodel"`)
		return drfPermStatus("GET /", s.c.Get("/", credentials("permitted")), 200)
	}),
	modelPermsItem("test_calling_method_not_allowed", func(s *drfPermSite) []string {
		c := drfPermStatus("METHOD_NOT_ALLOWED /", s.c.Do("METHOD_NOT_ALLOWED", "/", "", credentials("permitted")), 405)
		return append(c, drfPermStatus("METHOD_NOT_ALLOWED /1", s.c.Do("METHOD_NOT_ALLOWED", "/1", "", credentials("permitted")), 405)...)
	}),
	modelPermsItem("test_api_root_view_discard_default_django_model_permission", func(s *drfPermSite) []string {
		return drfPermStatus("GET /", s.ignored().Get("/", credentials("permitted")), 200)
	}),
	modelPermsItem("test_ignore_model_permissions_with_unauthenticated_user", func(s *drfPermSite) []string {
		want := 401
		if s.level == framework.DRF314 {
			// DRF 3.14 skips the whole check, authentication included.
			want = 200
		}
		return drfPermStatus("GET /", s.ignored().Get("/"), want)
	}),
	modelPermsItem("test_ignore_model_permissions_with_authenticated_user", func(s *drfPermSite) []string {
		return drfPermStatus("GET /", s.ignored().Get("/", credentials("permitted")), 200)
	}),
	modelPermsItem("test_check_auth_before_queryset_call", func(s *drfPermSite) []string {
		return drfPermStatus("GET /", s.c.Get("/", "Authorization: "), 401)
	}),

	objectPermsItem("test_can_delete_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("DELETE /1", s.c.Do(http.MethodDelete, "/1", "", credentials("deleteonly")), 204)
	}),
	objectPermsItem("test_cannot_delete_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("DELETE /1", s.c.Do(http.MethodDelete, "/1", "", credentials("readonly")), 403)
	}),
	objectPermsItem("test_can_update_permissions", func(s *drfPermSite) []string {
		r := s.c.Do(http.MethodPatch, "/1", `{"text":"foobar"}`, drfPermJSON, credentials("writeonly"))
		c := drfPermStatus("PATCH /1", r, 200)
		if r.Status == 200 {
			c.Equal("text", r.JSON()["text"], "foobar")
		}
		return c
	}),
	objectPermsItem("test_cannot_update_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("PATCH /1", s.c.Do(http.MethodPatch, "/1", `{"text":"foobar"}`, drfPermJSON, credentials("deleteonly")), 404)
	}),
	objectPermsItem("test_cannot_update_permissions_non_existing", func(s *drfPermSite) []string {
		return drfPermStatus("PATCH /999", s.c.Do(http.MethodPatch, "/999", `{"text":"foobar"}`, drfPermJSON, credentials("deleteonly")), 404)
	}),
	objectPermsItem("test_can_read_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("GET /1", s.c.Get("/1", credentials("readonly")), 200)
	}),
	objectPermsItem("test_cannot_read_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("GET /1", s.c.Get("/1", credentials("writeonly")), 404)
	}),
	objectPermsItem("test_can_read_get_queryset_permissions", func(s *drfPermSite) []string {
		return drfPermStatus("GET /1", s.c.Get("/1", credentials("readonly")), 200)
	}),
	objectPermsItem("test_can_read_list_permissions", func(s *drfPermSite) []string {
		r := s.c.Get("/", credentials("readonly"))
		c := drfPermStatus("GET /", r, 200)
		var rows []map[string]any
		r.Decode(&rows)
		if len(rows) == 0 {
			c.Equal("response.data", r.Body, "a list of BasicPermModel")
		} else {
			c.Equal("response.data[0]['id']", rows[0]["id"], 1.0)
		}
		return c
	}),
	objectPermsItem("test_cannot_method_not_allowed", func(s *drfPermSite) []string {
		return drfPermStatus("METHOD_NOT_ALLOWED /", s.c.Do("METHOD_NOT_ALLOWED", "/", "", credentials("readonly")), 405)
	}),

	customPermsItem("test_permission_denied", drfDenyPerm{}),
	customPermsItem("test_permission_denied_with_custom_detail", drfDenyPerm{custom: true}),
	customPermsItem("test_permission_denied_for_object", drfDenyPerm{object: true}),
	customPermsItem("test_permission_denied_for_object_with_custom_detail", drfDenyPerm{object: true, custom: true}),

	compositionItem("test_and_false", false, framework.And(framework.IsAuthenticated{}, framework.AllowAny{}), false),
	compositionItem("test_and_true", true, framework.And(framework.IsAuthenticated{}, framework.AllowAny{}), true),
	compositionItem("test_or_false", false, framework.Or(framework.IsAuthenticated{}, framework.AllowAny{}), true),
	compositionItem("test_or_true", true, framework.Or(framework.IsAuthenticated{}, framework.AllowAny{}), true),
	compositionItem("test_not_false", false, framework.Not(framework.IsAuthenticated{}), true),
	compositionItem("test_not_true", true, framework.Not(framework.AllowAny{}), false),
	compositionItem("test_several_levels_without_negation", true, framework.And(framework.And(framework.And(
		framework.IsAuthenticated{}, framework.IsAuthenticated{}), framework.IsAuthenticated{}), framework.IsAuthenticated{}), true),
	// IsAuthenticated & ~IsAdminUser & IsAuthenticated & ~(IsAdminUser & IsAdminUser).
	compositionItem("test_several_levels_and_precedence_with_negation", true, framework.And(framework.And(framework.And(
		framework.IsAuthenticated{}, framework.Not(framework.IsAdminUser{})), framework.IsAuthenticated{}),
		framework.Not(framework.And(framework.IsAdminUser{}, framework.IsAdminUser{}))), true),
	// IsAuthenticated & IsAuthenticated | IsAuthenticated & IsAuthenticated.
	compositionItem("test_several_levels_and_precedence", true, framework.Or(
		framework.And(framework.IsAuthenticated{}, framework.IsAuthenticated{}),
		framework.And(framework.IsAuthenticated{}, framework.IsAuthenticated{})), true),
	lazinessItem("test_or_laziness", false, framework.Or, true, [2][2]int{{1, 0}, {1, 1}}),
	lazinessItem("test_object_or_laziness", true, framework.Or, true, [2][2]int{{1, 0}, {1, 0}}),
	lazinessItem("test_and_laziness", false, framework.And, false, [2][2]int{{1, 1}, {0, 1}}),
	lazinessItem("test_object_and_laziness", true, framework.And, false, [2][2]int{{1, 1}, {0, 1}}),
	{Name: "PermissionsCompositionTests.test_unimplemented_has_object_permission", Run: func(t *testing.T, level framework.Compatibility) []string {
		// IsAuthenticatedUserOwner: IsAuthenticated whose
		// has_object_permission is True.
		owner := newCounted(false, true, framework.IsAuthenticated{})
		var c drfsuite.Checks
		c.Equal("hasperm", compose(t, level, false, true, framework.Or(owner, framework.IsAdminUser{})), false)
		return c
	}},
}

func TestDRFPermissions(t *testing.T) {
	var methods []string
	for _, it := range drfPermissionsItems {
		methods = append(methods, it.Name)
	}
	hash := "Python's hash: composed permissions are values of Go, compared with =="
	np := map[string]string{
		"ModelPermissionsIntegrationTests.test_queryset_assertions": "DjangoModelPermissions names its model " +
			"(AppLabel, ModelName), which registration requires; it reads no queryset of the view",
		"PermissionsCompositionTests.test_operand_holder_is_hashable":                              hash,
		"PermissionsCompositionTests.test_operand_holder_hash_same_for_same_operands_and_operator": hash,
		"PermissionsCompositionTests.test_operand_holder_hash_differs_for_different_operands":      hash,
		"PermissionsCompositionTests.test_operand_holder_hash_differs_for_different_operators":     hash,
		"PermissionsCompositionTests.test_filtering_permissions":                                   hash + " (dict.fromkeys)",
	}
	for m := range np {
		methods = append(methods, m)
	}
	drfsuite.Suite{
		File:    "tests/test_permissions.py",
		Methods: methods,
		Items:   drfPermissionsItems,
		Differ: map[string]string{
			"drf314:ModelPermissionsIntegrationTests.test_ignore_model_permissions_with_unauthenticated_user": "DjangoModelPermissions " +
				"needs an authenticated user on every view at both levels, where DRF 3.14 lets anonymous requests through to a view " +
				"whose model permissions it ignores (the router's root)",
		},
		NotPortable: np,
		Own314:      []string{"ModelPermissionsIntegrationTests.test_ignore_model_permissions_with_unauthenticated_user"},
	}.Run(t)
}

// TestPermissionCodeAsDRF: a permission's Code (DRF's code attribute) is
// the code of its denial, on the request and on objects, as an exception
// handler sees it; without one it is "permission_denied", and the message
// is DRF's own.
func TestPermissionCodeAsDRF(t *testing.T) {
	for _, p := range []drfDenyPerm{{custom: true}, {object: true, custom: true}, {}, {object: true}} {
		s := newDRFPermSite(t, framework.DRF318, drfPermUser{name: "username"})
		s.api.Handle("/{pk}", generics.RetrieveUpdateDestroyAPIView(s.generic(p)))
		r := s.c.Get("/1", credentials("username"))
		wantCode, wantDetail := drfCustomCode, drfCustomMessage
		if !p.custom {
			wantCode, wantDetail = "permission_denied", "You do not have permission to perform this action."
		}
		if r.Status != 403 || s.code != wantCode || r.JSON()["detail"] != wantDetail {
			t.Errorf("%+v: %d %s, code %q; want 403 %q, code %q", p, r.Status, r.Body, s.code, wantDetail, wantCode)
		}
	}
}
