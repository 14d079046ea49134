package routers_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_viewsets.py, ported onto the routers: each test
// method is an item named by its class and method, run at both
// compatibility levels with DRF's assertions. A view's
// get_extra_action_url_map is the browsable page's Extra Actions menu,
// and reverse_action(name) the route "{basename}-{name}".

// drfActionModel is test_viewsets.py's Action.
type drfActionModel struct {
	ID int64 `db:"id" json:"id"`
}

func (drfActionModel) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "Action", Table: "tests_action"}
}

// drfActionSerializer is a serializer of Action, which a generic viewset
// needs to be registered (ActionViewSet has none, its actions serialize
// nothing).
var drfActionSerializer = serializers.MustNew[drfActionModel]()

// drfActionViewSet is ActionViewSet: List, Retrieve and ListAction answer
// with the action the view saw (response.view.action).
type drfActionViewSet struct {
	generics.GenericViewSet[drfActionModel]
}

func (*drfActionViewSet) List(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]any{"action": v.Action(r)}), nil
}

func (*drfActionViewSet) Retrieve(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]any{"action": v.Action(r)}), nil
}

func (vs *drfActionViewSet) actions() []routers.Action {
	unimplemented := func(*framework.View, *request.Request) (*framework.Response, error) {
		return nil, errors.New("NotImplementedError")
	}
	return []routers.Action{
		{Name: "ListAction", Handler: vs.List},
		{Name: "CustomListAction", Handler: unimplemented, URLName: "list-custom"},
		{Name: "DetailAction", Handler: unimplemented, Detail: true},
		{Name: "CustomDetailAction", Handler: unimplemented, Detail: true, URLName: "detail-custom"},
		{Name: "UnresolvableDetailAction", Handler: unimplemented, Detail: true, URLPath: `unresolvable/{arg:\w+}`, URLName: "unresolvable"},
		{Name: "WrappedListAction", Handler: unimplemented},
		{Name: "WrappedDetailAction", Handler: unimplemented, Detail: true},
	}
}

// drfActionNamesViewSet is ActionNamesViewSet.
type drfActionNamesViewSet struct{ generics.ViewSet }

func (*drfActionNamesViewSet) Retrieve(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]any{"action": v.Action(r)}), nil
}

func (vs *drfActionNamesViewSet) actions() []routers.Action {
	return []routers.Action{
		{Name: "UnnamedAction", Handler: vs.Retrieve, Detail: true},
		{Name: "NamedAction", Handler: vs.Retrieve, Detail: true, ViewName: "Custom Name"},
		{Name: "SuffixedAction", Handler: vs.Retrieve, Detail: true, Suffix: "Custom Suffix"},
	}
}

// drfViewsetsAPI is test_viewsets.py's urlconf: its router under "api/",
// with the browsable renderer for the Extra Actions menu.
func drfViewsetsAPI(t *testing.T, level framework.Compatibility) (*framework.API, *apitest.Client) {
	db, _ := drfsuite.Open(t)
	db.MustExec(`CREATE TABLE "tests_action" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT)`)
	src := queryset.MustSQL[drfActionModel](db, queryset.SQLConfig{})
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level,
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})})
	var router routers.SimpleRouter
	for _, reg := range []struct{ prefix, basename string }{{"actions", ""}, {"actions-alt", "actions-alt"}, {"mapping", "mapping"}} {
		vs := &drfActionViewSet{}
		vs.Source, vs.Serializer = src, drfActionSerializer
		router.Register(reg.prefix, vs, reg.basename, vs.actions()...)
	}
	names := &drfActionNamesViewSet{}
	names.Name = "Action Names"
	router.Register("names", names, "names", names.actions()...)
	api.Route("/api", "", router.Mount)
	return api, apitest.New(t, api)
}

// drfMenu is the Extra Actions menu of the page at path, name to URL.
func drfMenu(c *apitest.Client, path string) map[string]string {
	body := c.Get(path, "Accept: text/html").Body
	menu := map[string]string{}
	if i := strings.Index(body, `id="extra-actions"`); i >= 0 {
		part := body[i : i+strings.Index(body[i:], "</details>")]
		for _, m := range menuLink.FindAllStringSubmatch(part, -1) {
			menu[m[2]] = m[1]
		}
	}
	return menu
}

// drfViewsetsItems are the ported methods.
var drfViewsetsItems = []drfsuite.Item{
	{Name: "InitializeViewSetsTestCase.test_initialize_view_set_with_actions", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfViewsetsAPI(t, level)
		r := client.Get("/api/actions/", "Content-Type: application/json")
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `{"action":"list"}`)
		return c
	}},
	{Name: "InitializeViewSetsTestCase.test_head_request_against_viewset", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfViewsetsAPI(t, level)
		c.Equal("status", client.Do("HEAD", "/api/actions/", "", "Content-Type: application/json").Status, 200)
		return c
	}},
	{Name: "InitializeViewSetsTestCase.test_viewset_action_attr", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfActionSeen(t, level, "/api/actions/", "list")
	}},
	{Name: "InitializeViewSetsTestCase.test_viewset_action_attr_for_extra_action", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfActionSeen(t, level, "/api/actions/list_action/", "list_action")
	}},
	{Name: "GetExtraActionUrlMapTests.test_list_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfViewsetsAPI(t, level)
		c.Equal("extra action url map", drfMenu(client, "/api/actions/"), map[string]string{
			"Custom list action":  "http://testserver/api/actions/custom_list_action/",
			"List action":         "http://testserver/api/actions/list_action/",
			"Wrapped list action": "http://testserver/api/actions/wrapped_list_action/",
		})
		return c
	}},
	{Name: "GetExtraActionUrlMapTests.test_detail_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfViewsetsAPI(t, level)
		c.Equal("extra action url map", drfMenu(client, "/api/actions/1/"), map[string]string{
			"Custom detail action":  "http://testserver/api/actions/1/custom_detail_action/",
			"Detail action":         "http://testserver/api/actions/1/detail_action/",
			"Wrapped detail action": "http://testserver/api/actions/1/wrapped_detail_action/",
		})
		return c
	}},
	{Name: "GetExtraActionUrlMapTests.test_action_names", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfViewsetsAPI(t, level)
		c.Equal("extra action url map", drfMenu(client, "/api/names/1/"), map[string]string{
			"Custom Name":                "http://testserver/api/names/1/named_action/",
			"Action Names Custom Suffix": "http://testserver/api/names/1/suffixed_action/",
			"Unnamed action":             "http://testserver/api/names/1/unnamed_action/",
		})
		return c
	}},
	{Name: "ReverseActionTests.test_default_basename", Run: func(t *testing.T, level framework.Compatibility) []string {
		api, _ := drfViewsetsAPI(t, level)
		return drfReverseActions(api, "action", "/api/actions/")
	}},
	{Name: "ReverseActionTests.test_custom_basename", Run: func(t *testing.T, level framework.Compatibility) []string {
		api, _ := drfViewsetsAPI(t, level)
		return drfReverseActions(api, "actions-alt", "/api/actions-alt/")
	}},
	{Name: "ReverseActionTests.test_request_passing", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		api, client := drfViewsetsAPI(t, level)
		api.Handle("/", framework.View{Get: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
			link, err := reverse.Link("action-list", nil, r)
			if err != nil {
				return nil, err
			}
			return framework.OK(map[string]string{"link": link}), nil
		}})
		c.JSON("with the request", client.Get("/").Body, `{"link":"http://testserver/api/actions/"}`)
		path, err := api.Routes().Path("action-list", nil)
		c.Equal("without", [2]any{path, err}, [2]any{"/api/actions/", nil})
		return c
	}},
}

// drfActionSeen checks that GET and HEAD of path see action (response.view.action).
func drfActionSeen(t *testing.T, level framework.Compatibility, path string, action framework.ViewAction) []string {
	var c drfsuite.Checks
	seen := map[string]framework.ViewAction{}
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
	vs := &drfActionViewSet{}
	db, _ := drfsuite.Open(t)
	db.MustExec(`CREATE TABLE "tests_action" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT)`)
	vs.Source, vs.Serializer = queryset.MustSQL[drfActionModel](db, queryset.SQLConfig{}), drfActionSerializer
	record := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		seen[r.Method] = v.Action(r)
		return framework.OK(nil), nil
	}
	var router routers.SimpleRouter
	router.Register("api/actions", &drfRecordingViewSet{drfActionViewSet: vs, record: record}, "action",
		routers.Action{Name: "ListAction", Handler: record})
	router.Mount(api)
	client := apitest.New(t, api)
	client.Get(path)
	client.Do("HEAD", path, "")
	c.Equal("get.view.action", seen["GET"], action)
	c.Equal("head.view.action", seen["HEAD"], action)
	return c
}

// drfRecordingViewSet is an ActionViewSet whose List records the action.
type drfRecordingViewSet struct {
	*drfActionViewSet
	record framework.HandlerFunc
}

func (vs *drfRecordingViewSet) List(v *framework.View, r *request.Request) (*framework.Response, error) {
	return vs.record(v, r)
}

// drfReverseActions checks view.reverse_action for the routes of basename
// under prefix.
func drfReverseActions(api *framework.API, basename, prefix string) []string {
	var c drfsuite.Checks
	for _, x := range []struct {
		name, pk, want string
	}{
		{"list", "", ""}, {"list-action", "", "list_action/"}, {"list-custom", "", "custom_list_action/"},
		{"detail", "1", "1/"}, {"detail-action", "1", "1/detail_action/"}, {"detail-custom", "1", "1/custom_detail_action/"},
	} {
		var params map[string]string
		if x.pk != "" {
			params = map[string]string{"pk": x.pk}
		}
		path, err := api.Routes().Path(basename+"-"+x.name, params)
		c.Equal("reverse_action("+x.name+")", [2]any{path, err}, [2]any{prefix + x.want, nil})
	}
	return c
}

// viewsetsAsView is why the methods of as_view() are not portable.
const viewsetsAsView = "Python's API: ViewSet.as_view(actions=...); a router finds a viewset's actions when it is registered, and refuses a viewset with none"

// TestDRFViewsets runs DRF 3.18's tests/test_viewsets.py.
func TestDRFViewsets(t *testing.T) {
	drfsuite.Suite{
		File: "tests/test_viewsets.py",
		Methods: strings.Fields(`InitializeViewSetsTestCase.test_initialize_view_set_with_actions
			InitializeViewSetsTestCase.test_head_request_against_viewset
			InitializeViewSetsTestCase.test_initialize_view_set_with_empty_actions
			InitializeViewSetsTestCase.test_initialize_view_set_with_both_name_and_suffix
			InitializeViewSetsTestCase.test_args_kwargs_request_action_map_on_self
			InitializeViewSetsTestCase.test_viewset_action_attr InitializeViewSetsTestCase.test_viewset_action_attr_for_extra_action
			InitializeViewSetsTestCase.test_login_required_middleware_compat GetExtraActionsTests.test_extra_actions
			GetExtraActionsTests.test_should_only_return_decorated_methods GetExtraActionsTests.test_attr_name_check
			GetExtraActionUrlMapTests.test_list_view GetExtraActionUrlMapTests.test_detail_view
			GetExtraActionUrlMapTests.test_uninitialized_view GetExtraActionUrlMapTests.test_action_names
			ReverseActionTests.test_default_basename ReverseActionTests.test_custom_basename ReverseActionTests.test_request_passing`),
		Items:  drfViewsetsItems,
		Differ: map[string]string{},
		NotPortable: map[string]string{
			"InitializeViewSetsTestCase.test_initialize_view_set_with_empty_actions":        viewsetsAsView,
			"InitializeViewSetsTestCase.test_initialize_view_set_with_both_name_and_suffix": viewsetsAsView + " (an extra action's ViewName and Suffix are refused together, TestActionNameAndSuffix)",
			"InitializeViewSetsTestCase.test_args_kwargs_request_action_map_on_self":        "Python's API: the attributes of a view instance",
			"InitializeViewSetsTestCase.test_login_required_middleware_compat":              "Django's API: the login_required attribute of Django 5.1's LoginRequiredMiddleware",
			"GetExtraActionsTests.test_extra_actions":                                       "Python's API: get_extra_actions() finds @action methods; a router is given its extra actions (their menu's order is test_list_view's)",
			"GetExtraActionsTests.test_should_only_return_decorated_methods":                "Python's API: an attribute with a mapping that is not an @action",
			"GetExtraActionsTests.test_attr_name_check":                                     "Python's API: a decorator without functools.wraps",
			"GetExtraActionUrlMapTests.test_uninitialized_view":                             "Python's API: a view instance without a request",
		},
	}.Run(t)
}

// TestActionNameAndSuffix: an extra action given both a ViewName and a
// Suffix is refused at registration, as DRF's as_view refuses name and
// suffix together.
func TestActionNameAndSuffix(t *testing.T) {
	vs := &drfActionNamesViewSet{}
	err := drfRefused(func() {
		var r routers.SimpleRouter
		r.Register("names", vs, "names", routers.Action{Name: "Both", Handler: vs.Retrieve, Detail: true, ViewName: "Custom Name", Suffix: "Custom Suffix"})
	})
	want := `routers: register "names": extra action Both: received both ViewName and Suffix, which are mutually exclusive arguments.`
	if err == nil || err.Error() != want {
		t.Errorf("Register = %v, want %q", err, want)
	}
}
