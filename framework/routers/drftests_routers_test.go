package routers_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_routers.py, ported onto the routers: each test
// method is an item named by its class and method, run at both
// compatibility levels with DRF's assertions. A route's regex,
// "^notes/(?P<uuid>[^/.]+)/$", is its chi pattern, "/notes/{uuid:[^/.]+}/";
// include(router.urls) under a prefix is framework.API.Route.

// drfRouterModel is test_routers.py's RouterTestModel.
type drfRouterModel struct {
	ID   int64  `db:"id" json:"id" drf:"read_only"`
	UUID string `db:"uuid" json:"uuid" model:"max_length=20"`
	Text string `db:"text" json:"text" model:"max_length=200"`
}

func (drfRouterModel) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "RouterTestModel", Table: "tests_routertestmodel"}
}

// drfBasenameModel is test_routers.py's BasenameTestModel.
type drfBasenameModel struct {
	ID   int64  `db:"id" json:"id" drf:"read_only"`
	UUID string `db:"uuid" json:"uuid" model:"max_length=20"`
	Text string `db:"text" json:"text" model:"max_length=200"`
}

func (drfBasenameModel) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "BasenameTestModel", Table: "tests_basenametestmodel"}
}

// drfNoteSerializer is NoteSerializer: a url by uuid, the uuid and text.
var drfNoteSerializer = serializers.MustNew[drfRouterModel](serializers.Fields("url", "uuid", "text"),
	serializers.HyperlinkedIdentity{Name: "url", Route: "routertestmodel-detail", LookupField: "uuid"})

// drfRouterSource is RouterTestModel's table with the rows, each [uuid,
// text], and BasenameTestModel's, empty.
func drfRouterSource(t *testing.T, rows ...[2]string) (queryset.Source[drfRouterModel], queryset.Source[drfBasenameModel]) {
	t.Helper()
	db, _ := drfsuite.Open(t)
	db.MustExec(`CREATE TABLE "tests_routertestmodel" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "uuid" varchar(20) NOT NULL, "text" varchar(200) NOT NULL)`)
	db.MustExec(`CREATE TABLE "tests_basenametestmodel" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "uuid" varchar(20) NOT NULL, "text" varchar(200) NOT NULL)`)
	for _, r := range rows {
		db.MustExec(`INSERT INTO "tests_routertestmodel" ("uuid", "text") VALUES (?, ?)`, r[0], r[1])
	}
	return queryset.MustSQL[drfRouterModel](db, queryset.SQLConfig{}), queryset.MustSQL[drfBasenameModel](db, queryset.SQLConfig{})
}

// drfNoteViewSet is NoteViewSet (lookup_field uuid), or KWargedNoteViewSet
// (lookup_field text__contains, lookup_url_kwarg text) when kwarged.
func drfNoteViewSet(src queryset.Source[drfRouterModel], kwarged bool) *generics.ModelViewSet[drfRouterModel] {
	vs := &generics.ModelViewSet[drfRouterModel]{}
	vs.Source, vs.Serializer, vs.LookupField = src, drfNoteSerializer, "uuid"
	if kwarged {
		vs.LookupField, vs.LookupURLKwarg = "text__contains", "text"
	}
	return vs
}

// drfTestNotes are TestCustomLookupFields' rows.
var drfTestNotes = [][2]string{{"123", "foo bar"}, {"a b", "baz qux"}}

// drfBasicViewSet is test_routers.py's BasicViewSet.
type drfBasicViewSet struct{ generics.ViewSet }

func (*drfBasicViewSet) List(*framework.View, *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]string{"method": "list"}), nil
}

func (*drfBasicViewSet) Action1(*framework.View, *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]string{"method": "action1"}), nil
}

func (*drfBasicViewSet) Action2(*framework.View, *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]string{"method": "action2"}), nil
}

func (*drfBasicViewSet) Action3(_ *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]string{"post": r.PathValue("pk")}), nil
}

func (*drfBasicViewSet) Action3Delete(_ *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]string{"delete": r.PathValue("pk")}), nil
}

func (vs *drfBasicViewSet) actions() []routers.Action {
	return []routers.Action{
		{Name: "Action1", Handler: vs.Action1, Detail: true, HTTPMethods: []string{"POST"}},
		{Name: "Action2", Handler: vs.Action2, Detail: true, HTTPMethods: []string{"POST", "DELETE"}},
		{Name: "Action3", Handler: vs.Action3, Detail: true, HTTPMethods: []string{"POST"},
			Mapping: []routers.Mapped{{Method: "DELETE", Name: "Action3Delete", Handler: vs.Action3Delete}}},
	}
}

// drfDynamicViewSet is DynamicListAndDetailViewSet.
type drfDynamicViewSet struct{ generics.ViewSet }

func (*drfDynamicViewSet) List(*framework.View, *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]string{"method": "list"}), nil
}

func (*drfDynamicViewSet) respond(method string) framework.HandlerFunc {
	return func(*framework.View, *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]string{"method": method}), nil
	}
}

func (vs *drfDynamicViewSet) actions() []routers.Action {
	return []routers.Action{
		{Name: "ListRoutePost", Handler: vs.respond("action1"), HTTPMethods: []string{"POST"}},
		{Name: "DetailRoutePost", Handler: vs.respond("action2"), Detail: true, HTTPMethods: []string{"POST"}},
		{Name: "ListRouteGet", Handler: vs.respond("link1")},
		{Name: "DetailRouteGet", Handler: vs.respond("link2"), Detail: true},
		{Name: "ListCustomRouteGet", Handler: vs.respond("link1"), URLPath: "list_custom-route"},
		{Name: "DetailCustomRouteGet", Handler: vs.respond("link2"), Detail: true, URLPath: "detail_custom-route"},
	}
}

// drfSubDynamicViewSet is SubDynamicListAndDetailViewSet.
type drfSubDynamicViewSet struct{ drfDynamicViewSet }

// drfKwargViewSet is RegexUrlPathViewSet (regex) or UrlPathViewSet
// (path converters, whose <int:...> values are numbers).
type drfKwargViewSet struct {
	generics.ViewSet
	ints bool
}

func (vs *drfKwargViewSet) value(r *request.Request, name string) any {
	if !vs.ints {
		return r.PathValue(name)
	}
	n, err := strconv.Atoi(r.PathValue(name))
	if err != nil {
		panic(err)
	}
	return n
}

func (vs *drfKwargViewSet) actions() []routers.Action {
	list := func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]any{"kwarg": vs.value(r, "kwarg")}), nil
	}
	detail := func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]any{"pk": r.PathValue("pk"), "kwarg": vs.value(r, "kwarg")}), nil
	}
	if !vs.ints {
		return []routers.Action{
			{Name: "RegexURLPathList", Handler: list, URLPath: "list/{kwarg:[0-9]{4}}"},
			{Name: "RegexURLPathDetail", Handler: detail, Detail: true, URLPath: "detail/{kwarg:[0-9]{4}}"},
		}
	}
	multiple := func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]any{"pk": r.PathValue("pk"), "kwarg": vs.value(r, "kwarg"), "param": vs.value(r, "param")}), nil
	}
	return []routers.Action{
		{Name: "URLPathList", Handler: list, URLPath: "list/{kwarg:[0-9]+}"},
		{Name: "URLPathDetail", Handler: detail, Detail: true, URLPath: "detail/{kwarg:[0-9]+}"},
		{Name: "URLPathDetailMultipleParams", Handler: multiple, Detail: true, URLPath: "detail/{kwarg:[0-9]+}/detail/{param:[0-9]+}"},
	}
}

// drfEmptyPrefixViewSet is EmptyPrefixViewSet: two notes in memory, the
// detail by index.
type drfEmptyPrefixViewSet struct{ generics.ViewSet }

var drfEmptyPrefixNotes = []map[string]string{{"uuid": "111", "text": "First"}, {"uuid": "222", "text": "Second"}}

func (*drfEmptyPrefixViewSet) List(*framework.View, *request.Request) (*framework.Response, error) {
	return framework.OK(drfEmptyPrefixNotes), nil
}

func (*drfEmptyPrefixViewSet) Retrieve(_ *framework.View, r *request.Request) (*framework.Response, error) {
	i, err := strconv.Atoi(r.PathValue("pk"))
	if err != nil || i < 1 || i > len(drfEmptyPrefixNotes) {
		return nil, fmt.Errorf("no note %q", r.PathValue("pk"))
	}
	return framework.OK(drfEmptyPrefixNotes[i-1]), nil
}

// drfMockViewSet is MockViewSet: a list of nothing.
type drfMockViewSet struct{ generics.ViewSet }

func (*drfMockViewSet) List(*framework.View, *request.Request) (*framework.Response, error) {
	return framework.OK([]any{}), nil
}

// drfAPI is a new API at level with a client.
func drfAPI(t *testing.T, level framework.Compatibility) (*framework.API, *apitest.Client) {
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
	return api, apitest.New(t, api)
}

// drfEndpoints are api's endpoints by chi pattern.
func drfEndpoints(api *framework.API) map[string]framework.Endpoint {
	m := map[string]framework.Endpoint{}
	for _, e := range api.Endpoints() {
		m[e.Pattern] = e
	}
	return m
}

// drfPatterns are api's chi patterns, in the order of its endpoints.
func drfPatterns(api *framework.API) []string {
	var p []string
	for _, e := range api.Endpoints() {
		p = append(p, e.Pattern)
	}
	return p
}

// drfRefused is the setup error of register, nil if none.
func drfRefused(register func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	register()
	return nil
}

// drfRegisterer is one of BasenameTestCase's routers.
type drfRegisterer interface {
	Register(prefix string, viewset routers.ViewSet, basename string, extra ...routers.Action)
}

// drfBasenameItems are BasenameTestCase's methods for the router of
// class (SimpleRouter(trailing_slash=False), DefaultRouter(),
// DefaultRouter() with root_view_name).
func drfBasenameItems(class string, newRouter func() drfRegisterer) []drfsuite.Item {
	type step struct {
		prefix, basename string
		kwarged, other   bool
		refused          bool
	}
	cases := []struct {
		method string
		steps  []step
	}{
		{"test_conflicting_autogenerated_basenames", []step{{"notes", "", false, false, false}, {"notes_kwduplicate", "", true, false, true}, {"notes_duplicate", "", false, false, true}}},
		{"test_conflicting_mixed_basenames", []step{{"notes", "", false, false, false}, {"notes_kwduplicate", "routertestmodel", true, false, true}, {"notes_duplicate", "routertestmodel", false, false, true}}},
		{"test_nonconflicting_mixed_basenames", []step{{"notes", "", false, false, false}, {"notes_kwduplicate", "routertestmodel_kwduplicate", true, false, false}, {"notes_duplicate", "routertestmodel_duplicate", false, false, false}}},
		{"test_conflicting_specified_basename", []step{{"notes", "notes", false, false, false}, {"notes_kwduplicate", "notes", true, false, true}, {"notes_duplicate", "notes", true, false, true}}},
		{"test_nonconflicting_specified_basename", []step{{"notes", "notes", false, false, false}, {"notes_kwduplicate", "notes_kwduplicate", true, false, false}, {"notes_duplicate", "notes_duplicate", false, false, false}}},
		{"test_nonconflicting_specified_basename_different_models", []step{{"notes", "notes", false, false, false}, {"notes_basename", "notes_basename", false, true, false}}},
		{"test_conflicting_specified_basename_different_models", []step{{"notes", "", false, false, false}, {"notes_basename", "routertestmodel", false, true, true}}},
		{"test_nonconflicting_autogenerated_basename_different_models", []step{{"notes", "", false, false, false}, {"notes_basename", "", false, true, false}}},
	}
	var items []drfsuite.Item
	for _, tc := range cases {
		items = append(items, drfsuite.Item{Name: class + "." + tc.method, Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			src, other := drfRouterSource(t)
			router := newRouter()
			for _, s := range tc.steps {
				var vs routers.ViewSet = drfNoteViewSet(src, s.kwarged)
				if s.other {
					// BasenameViewSet; its serializer_class=None is a setup
					// error of its own here.
					b := &generics.ModelViewSet[drfBasenameModel]{}
					b.Source, b.Serializer = other, serializers.MustNew[drfBasenameModel]()
					vs = b
				}
				err := drfRefused(func() { router.Register(s.prefix, vs, s.basename) })
				// DRF 3.14 registers a basename twice (3.15 refuses it).
				c.Equal("register "+s.prefix+" refused", err != nil, s.refused && level != framework.DRF314)
				if err != nil && !strings.Contains(err.Error(), "is registered twice") {
					c = append(c, "register "+s.prefix+": "+err.Error())
				}
			}
			return c
		}})
	}
	return items
}

// drfRoutersItems are the ported methods.
var drfRoutersItems = append([]drfsuite.Item{
	{Name: "TestSimpleRouter.test_action_routes", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		api, _ := drfAPI(t, level)
		vs := &drfBasicViewSet{}
		var r routers.SimpleRouter
		r.Register("basics", vs, "basic", vs.actions()...)
		r.Mount(api)
		e := drfEndpoints(api)
		for pattern, mapping := range map[string]map[string]framework.ViewAction{
			"/basics/{pk:[^/.]+}/action1/": {"POST": "action1"},
			"/basics/{pk:[^/.]+}/action2/": {"POST": "action2", "DELETE": "action2"},
			"/basics/{pk:[^/.]+}/action3/": {"POST": "action3", "DELETE": "action3_delete"},
		} {
			if ep, ok := e[pattern]; !ok {
				c = append(c, "no route "+pattern)
			} else {
				c.Equal(pattern+" mapping", ep.View.Actions, mapping)
			}
		}
		return c
	}},
	{Name: "TestSimpleRouter.test_multiple_action_handlers", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		api, client := drfAPI(t, level)
		vs := &drfBasicViewSet{}
		var r routers.SimpleRouter
		r.Register("basics", vs, "basic", vs.actions()...)
		api.Route("/api", "", r.Mount)
		path, err := api.Routes().Path("basic-action3", map[string]string{"pk": "1"})
		c.Equal("reverse error", err, nil)
		c.JSON("POST data", client.Post(path, "").Body, `{"post":"1"}`)
		c.JSON("DELETE data", client.Do("DELETE", path, "").Body, `{"delete":"1"}`)
		return c
	}},
	{Name: "TestSimpleRouter.test_register_after_accessing_urls", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		src, _ := drfRouterSource(t)
		var r routers.SimpleRouter
		r.Register("notes", drfNoteViewSet(src, false), "")
		api, _ := drfAPI(t, level)
		r.Mount(api)
		c.Equal("urls", len(api.Endpoints()), 2)
		r.Register("notes_bis", drfNoteViewSet(src, false), "notes_bis")
		api, _ = drfAPI(t, level)
		r.Mount(api)
		c.Equal("urls", len(api.Endpoints()), 4)
		return c
	}},
	{Name: "TestRootView.test_retrieve_namespaced_root", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		client := drfNamespacedRoot(t, level)
		c.JSON("data", client.Get("/namespaced/").Body, `{"example":"http://testserver/namespaced/example/"}`)
		return c
	}},
	{Name: "TestRootView.test_retrieve_non_namespaced_root", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		client := drfNamespacedRoot(t, level)
		c.JSON("data", client.Get("/non-namespaced/").Body, `{"example":"http://testserver/non-namespaced/example/"}`)
		return c
	}},
	{Name: "TestCustomLookupFields.test_custom_lookup_field_route", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		api, _ := drfLookupAPI(t, level)
		if !strings.Contains(strings.Join(drfPatterns(api), " "), "/example/notes/{uuid:") {
			c = append(c, fmt.Sprintf("no detail route by uuid in %q", drfPatterns(api)))
		}
		return c
	}},
	{Name: "TestCustomLookupFields.test_retrieve_lookup_field_list_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfLookupAPI(t, level)
		c.JSON("data", client.Get("/example/notes/").Body, `[{"url":"http://testserver/example/notes/123/","uuid":"123","text":"foo bar"},`+
			`{"url":"http://testserver/example/notes/a%20b/","uuid":"a b","text":"baz qux"}]`)
		return c
	}},
	{Name: "TestCustomLookupFields.test_retrieve_lookup_field_detail_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfLookupAPI(t, level)
		c.JSON("data", client.Get("/example/notes/123/").Body, `{"url":"http://testserver/example/notes/123/","uuid":"123","text":"foo bar"}`)
		return c
	}},
	{Name: "TestCustomLookupFields.test_retrieve_lookup_field_url_encoded_detail_view_", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfLookupAPI(t, level)
		c.JSON("data", client.Get("/example/notes/a%20b/").Body, `{"url":"http://testserver/example/notes/a%20b/","uuid":"a b","text":"baz qux"}`)
		return c
	}},
	{Name: "TestLookupValueRegex.test_urls_limited_by_lookup_value_regex", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		src, _ := drfRouterSource(t)
		vs := drfNoteViewSet(src, false)
		vs.LookupValueRegex = "[0-9a-f]{32}"
		var r routers.SimpleRouter
		r.Register("notes", vs, "")
		api, _ := drfAPI(t, level)
		r.Mount(api)
		c.Equal("urls", drfPatterns(api), []string{"/notes/", "/notes/{uuid:[0-9a-f]{32}}/"})
		return c
	}},
	{Name: "TestLookupUrlKwargs.test_custom_lookup_url_kwarg_route", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		api, _ := drfLookupAPI(t, level)
		if !strings.Contains(strings.Join(drfPatterns(api), " "), "/example2/notes/{text:") {
			c = append(c, fmt.Sprintf("no detail route by text in %q", drfPatterns(api)))
		}
		return c
	}},
	{Name: "TestLookupUrlKwargs.test_retrieve_lookup_url_kwarg_detail_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfLookupAPI(t, level, [2]string{"123", "foo bar"})
		c.JSON("data", client.Get("/example2/notes/fo/").Body, `{"url":"http://testserver/example/notes/123/","uuid":"123","text":"foo bar"}`)
		return c
	}},
	{Name: "TestLookupUrlKwargs.test_retrieve_lookup_url_encoded_kwarg_detail_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfLookupAPI(t, level, [2]string{"123", "foo bar"})
		c.JSON("data", client.Get("/example2/notes/foo%20bar/").Body, `{"url":"http://testserver/example/notes/123/","uuid":"123","text":"foo bar"}`)
		return c
	}},
	{Name: "TestTrailingSlashIncluded.test_urls_have_trailing_slash_by_default", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		src, _ := drfRouterSource(t)
		vs := &generics.ModelViewSet[drfRouterModel]{}
		vs.Source, vs.Serializer = src, drfNoteSerializer
		var r routers.SimpleRouter
		r.Register("notes", vs, "")
		api, _ := drfAPI(t, level)
		r.Mount(api)
		c.Equal("urls", drfPatterns(api), []string{"/notes/", "/notes/{pk:[^/.]+}/"})
		return c
	}},
	{Name: "TestTrailingSlashRemoved.test_urls_can_have_trailing_slash_removed", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		src, _ := drfRouterSource(t)
		vs := &generics.ModelViewSet[drfRouterModel]{}
		vs.Source, vs.Serializer = src, drfNoteSerializer
		r := routers.SimpleRouter{NoTrailingSlash: true}
		r.Register("notes", vs, "")
		api, _ := drfAPI(t, level)
		r.Mount(api)
		c.Equal("urls", drfPatterns(api), []string{"/notes", "/notes/{pk:[^/.]+}"})
		return c
	}},
	{Name: "TestNameableRoot.test_router_has_custom_name", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		src, _ := drfRouterSource(t)
		vs := &generics.ModelViewSet[drfRouterModel]{}
		vs.Source, vs.Serializer = src, drfNoteSerializer
		r := routers.DefaultRouter{RootName: "nameable-root"}
		r.Register("notes", vs, "")
		api, _ := drfAPI(t, level)
		r.Mount(api)
		c.Equal("root name", drfEndpoints(api)["/"].Name, "nameable-root")
		return c
	}},
	{Name: "TestActionKeywordArgs.test_action_kwargs", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		vs := &generics.ViewSet{}
		vs.Permissions = framework.Permissions()
		custom := func(v *framework.View, _ *request.Request) (*framework.Response, error) {
			var names []string
			for _, p := range v.Permissions.Items() {
				names = append(names, reflect.TypeOf(p).Name())
			}
			return framework.OK(map[string]any{"permission_classes": names}), nil
		}
		var r routers.SimpleRouter
		r.Register("test", vs, "test", routers.Action{Name: "Custom", Handler: custom, Detail: true, HTTPMethods: []string{"POST"},
			Permissions: framework.Permissions(framework.AllowAny{})})
		api, client := drfAPI(t, level)
		r.Mount(api)
		c.JSON("data", client.Post("/test/0/custom/", "").Body, `{"permission_classes":["AllowAny"]}`)
		return c
	}},
	{Name: "TestActionAppliedToExistingRoute.test_exception_raised_when_action_applied_to_existing_route", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		src, _ := drfRouterSource(t)
		vs := &generics.ModelViewSet[drfRouterModel]{}
		vs.Source, vs.Serializer = src, drfNoteSerializer
		var r routers.SimpleRouter
		err := drfRefused(func() {
			r.Register("test", vs, "test", routers.Action{Name: "Retrieve", Handler: vs.Retrieve, Detail: true, HTTPMethods: []string{"POST"}})
		})
		c.Equal("ImproperlyConfigured", fmt.Sprint(err), `routers: register "test": Cannot use the @action decorator on the following methods, as they are existing routes: retrieve`)
		return c
	}},
	{Name: "TestDynamicListAndDetailRouter.test_list_and_detail_route_decorators", Run: func(t *testing.T, level framework.Compatibility) []string {
		vs := &drfDynamicViewSet{}
		return drfDynamicRoutes(t, level, vs, vs.actions())
	}},
	{Name: "TestDynamicListAndDetailRouter.test_inherited_list_and_detail_route_decorators", Run: func(t *testing.T, level framework.Compatibility) []string {
		vs := &drfSubDynamicViewSet{}
		return drfDynamicRoutes(t, level, vs, vs.actions())
	}},
	{Name: "TestEmptyPrefix.test_empty_prefix_list", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		r := drfEmptyPrefix(t, level).Get("/empty-prefix/")
		c.Equal("status", r.Status, 200)
		c.JSON("content", r.Body, `[{"uuid":"111","text":"First"},{"uuid":"222","text":"Second"}]`)
		return c
	}},
	{Name: "TestEmptyPrefix.test_empty_prefix_detail", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		r := drfEmptyPrefix(t, level).Get("/empty-prefix/1/")
		c.Equal("status", r.Status, 200)
		c.JSON("content", r.Body, `{"uuid":"111","text":"First"}`)
		return c
	}},
	{Name: "TestRegexUrlPath.test_regex_url_path_list", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		r := drfKwargs(t, level, false).Get("/regex/list/1234/")
		c.Equal("status", r.Status, 200)
		c.JSON("content", r.Body, `{"kwarg":"1234"}`)
		return c
	}},
	{Name: "TestRegexUrlPath.test_regex_url_path_detail", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		r := drfKwargs(t, level, false).Get("/regex/1/detail/1234/")
		c.Equal("status", r.Status, 200)
		c.JSON("content", r.Body, `{"pk":"1","kwarg":"1234"}`)
		return c
	}},
	{Name: "TestUrlPath.test_create", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		src, client := drfURLPath(t, level)
		r := client.Post("/example/notes/", "uuid=foo&text=example", "Content-Type: application/x-www-form-urlencoded")
		c.Equal("status", r.Status, 201)
		c.Equal("location", r.Header.Get("Location"), "http://testserver/example/notes/foo/")
		c.JSON("data", r.Body, `{"url":"http://testserver/example/notes/foo/","uuid":"foo","text":"example"}`)
		n, err := src.Filter("uuid", "foo").Count(t.Context())
		c.Equal("exists", [2]any{n, err}, [2]any{1, nil})
		return c
	}},
	{Name: "TestUrlPath.test_retrieve", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfURLPath(t, level)
		for _, url := range []string{"/example/notes/123/", "/default/notes/123/"} {
			r := client.Get(url)
			c.Equal(url+" status", r.Status, 200)
			c.JSON(url+" data", r.Body, `{"url":"http://testserver/example/notes/123/","uuid":"123","text":"foo bar"}`)
		}
		return c
	}},
	{Name: "TestUrlPath.test_list", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfURLPath(t, level)
		for _, url := range []string{"/example/notes/", "/default/notes/"} {
			r := client.Get(url)
			c.Equal(url+" status", r.Status, 200)
			c.JSON(url+" data", r.Body, `[{"url":"http://testserver/example/notes/123/","uuid":"123","text":"foo bar"},`+
				`{"url":"http://testserver/example/notes/a%20b/","uuid":"a b","text":"baz qux"}]`)
		}
		return c
	}},
	{Name: "TestUrlPath.test_update", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, client := drfURLPath(t, level)
		r := client.Do("PATCH", "/example/notes/123/", "text=foo+bar+example", "Content-Type: application/x-www-form-urlencoded")
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `{"url":"http://testserver/example/notes/123/","uuid":"123","text":"foo bar example"}`)
		return c
	}},
	{Name: "TestUrlPath.test_delete", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		src, client := drfURLPath(t, level)
		c.Equal("status", client.Do("DELETE", "/example/notes/123/", "").Status, 204)
		n, err := src.Filter("uuid", "123").Count(t.Context())
		c.Equal("exists", [2]any{n, err}, [2]any{0, nil})
		return c
	}},
	{Name: "TestUrlPath.test_list_extra_action", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		r := drfKwargs(t, level, true).Get("/path/list/1234/")
		c.Equal("status", r.Status, 200)
		c.JSON("content", r.Body, `{"kwarg":1234}`)
		return c
	}},
	{Name: "TestUrlPath.test_detail_extra_action", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		r := drfKwargs(t, level, true).Get("/path/1/detail/1234/")
		c.Equal("status", r.Status, 200)
		c.JSON("content", r.Body, `{"pk":"1","kwarg":1234}`)
		return c
	}},
	{Name: "TestUrlPath.test_detail_extra_other_action", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		r := drfKwargs(t, level, true).Get("/path/1/detail/1234/detail/2/")
		c.Equal("status", r.Status, 200)
		c.JSON("content", r.Body, `{"pk":"1","kwarg":1234,"param":2}`)
		return c
	}},
	{Name: "TestViewInitkwargs.test_suffix", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		e := drfViewInitkwargs(t, level)
		if !strings.HasSuffix(e.View.Name, " List") {
			c = append(c, fmt.Sprintf("view name %q has not the suffix List", e.View.Name))
		}
		return c
	}},
	{Name: "TestViewInitkwargs.test_detail", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		e := drfViewInitkwargs(t, level)
		c.Equal("detail", strings.Contains(e.Pattern, "{"), false)
		c.Equal("actions", e.View.Actions, map[string]framework.ViewAction{"GET": "list", "POST": "create"})
		return c
	}},
	{Name: "TestViewInitkwargs.test_basename", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		c.Equal("name", drfViewInitkwargs(t, level).Name, "routertestmodel-list")
		return c
	}},
}, append(append(
	drfBasenameItems("TestDuplicateBasenameSimpleRouter", func() drfRegisterer { return &routers.SimpleRouter{NoTrailingSlash: true} }),
	drfBasenameItems("TestDuplicateBasenameDefaultRouter", func() drfRegisterer { return &routers.DefaultRouter{} })...),
	drfBasenameItems("TestDuplicateBasenameDefaultRouterRootViewName", func() drfRegisterer { return &routers.DefaultRouter{RootName: "nameable-root"} })...)...)

// drfViewInitkwargs is the endpoint that resolve('/example/notes/')
// finds under TestViewInitkwargs' urlconf: as_view()'s initkwargs are the
// route's view name (suffix), its actions (detail) and its name
// (basename).
func drfViewInitkwargs(t *testing.T, level framework.Compatibility) framework.Endpoint {
	src, _ := drfRouterSource(t)
	api, _ := drfAPI(t, level)
	var notes routers.SimpleRouter
	notes.Register("notes", drfNoteViewSet(src, false), "")
	api.Route("/example", "", notes.Mount)
	return drfEndpoints(api)["/example/notes/"]
}

// drfNamespacedRoot is TestRootView's API: namespaced_router, a
// DefaultRouter of MockViewSet, under "non-namespaced/" and, in the
// namespace "namespaced", under "namespaced/".
func drfNamespacedRoot(t *testing.T, level framework.Compatibility) *apitest.Client {
	api, client := drfAPI(t, level)
	var r routers.DefaultRouter
	r.Register("example", &drfMockViewSet{}, "example")
	api.Route("/non-namespaced", "", r.Mount)
	api.Route("/namespaced", "namespaced", r.Mount)
	return client
}

// drfLookupAPI is TestCustomLookupFields' and TestLookupUrlKwargs' API:
// notes_router under "example/" and kwarged_notes_router under
// "example2/", over rows (drfTestNotes when none).
func drfLookupAPI(t *testing.T, level framework.Compatibility, rows ...[2]string) (*framework.API, *apitest.Client) {
	if len(rows) == 0 {
		rows = drfTestNotes
	}
	src, _ := drfRouterSource(t, rows...)
	api, client := drfAPI(t, level)
	var notes, kwarged routers.SimpleRouter
	notes.Register("notes", drfNoteViewSet(src, false), "")
	// One API names each route once: the kwarged router's basename is its
	// own (in DRF both are routertestmodel, and reverse finds the first).
	kwarged.Register("notes", drfNoteViewSet(src, true), "kwarged")
	api.Route("/example", "", notes.Mount)
	api.Route("/example2", "", kwarged.Mount)
	return api, client
}

// drfURLPath is TestUrlPath's API: notes_path_router under "example/" and
// notes_path_default_router under "default/" (use_regex_path=False: a chi
// pattern is a path).
func drfURLPath(t *testing.T, level framework.Compatibility) (queryset.Source[drfRouterModel], *apitest.Client) {
	src, _ := drfRouterSource(t, drfTestNotes...)
	api, client := drfAPI(t, level)
	var notes routers.SimpleRouter
	notes.Register("notes", drfNoteViewSet(src, false), "")
	var def routers.DefaultRouter
	def.Register("notes", drfNoteViewSet(src, false), "default")
	api.Route("/example", "", notes.Mount)
	api.Route("/default", "", def.Mount)
	return src, client
}

// drfEmptyPrefix is TestEmptyPrefix's API: empty_prefix_router under
// "empty-prefix/".
func drfEmptyPrefix(t *testing.T, level framework.Compatibility) *apitest.Client {
	api, client := drfAPI(t, level)
	var r routers.SimpleRouter
	r.Register("", &drfEmptyPrefixViewSet{}, "empty_prefix")
	api.Route("/empty-prefix", "", r.Mount)
	return client
}

// drfKwargs is TestRegexUrlPath's API (regex_url_path_router under
// "regex/") or TestUrlPath's (url_path_router under "path/") when ints.
func drfKwargs(t *testing.T, level framework.Compatibility, ints bool) *apitest.Client {
	api, client := drfAPI(t, level)
	vs := &drfKwargViewSet{ints: ints}
	var r routers.SimpleRouter
	prefix, basename := "/regex", "regex"
	if ints {
		prefix, basename = "/path", "path"
	}
	r.Register("", vs, basename, vs.actions()...)
	api.Route(prefix, "", r.Mount)
	return client
}

// drfDynamicRoutes is _test_list_and_detail_route_decorators: each extra
// action's route and method mapping.
func drfDynamicRoutes(t *testing.T, level framework.Compatibility, vs routers.ViewSet, actions []routers.Action) []string {
	var c drfsuite.Checks
	api, _ := drfAPI(t, level)
	var r routers.SimpleRouter
	r.Register("dynamic", vs, "dynamic", actions...)
	r.Mount(api)
	e := drfEndpoints(api)
	for _, x := range []struct{ method, path string }{
		{"list_custom_route_get", "list_custom-route"}, {"list_route_get", "list_route_get"}, {"list_route_post", "list_route_post"},
		{"detail_custom_route_get", "detail_custom-route"}, {"detail_route_get", "detail_route_get"}, {"detail_route_post", "detail_route_post"},
	} {
		pattern := "/dynamic/" + x.path + "/"
		if strings.HasPrefix(x.method, "detail_") {
			pattern = "/dynamic/{pk:[^/.]+}/" + x.path + "/"
		}
		method := "GET"
		if strings.HasSuffix(x.method, "_post") {
			method = "POST"
		}
		if ep, ok := e[pattern]; !ok {
			c = append(c, "no route "+pattern)
		} else {
			c.Equal(pattern+" mapping", ep.View.Actions[method], framework.ViewAction(x.method))
		}
	}
	return c
}

// drfRoutersMethods are the test methods of test_routers.py,
// BasenameTestCase's under each of its three subclasses.
var drfRoutersMethods = strings.Fields(`
	TestSimpleRouter.test_action_routes TestSimpleRouter.test_multiple_action_handlers
	TestSimpleRouter.test_register_after_accessing_urls TestRootView.test_retrieve_namespaced_root
	TestRootView.test_retrieve_non_namespaced_root TestCustomLookupFields.test_custom_lookup_field_route
	TestCustomLookupFields.test_retrieve_lookup_field_list_view TestCustomLookupFields.test_retrieve_lookup_field_detail_view
	TestCustomLookupFields.test_retrieve_lookup_field_url_encoded_detail_view_
	TestLookupValueRegex.test_urls_limited_by_lookup_value_regex TestLookupUrlKwargs.test_custom_lookup_url_kwarg_route
	TestLookupUrlKwargs.test_retrieve_lookup_url_kwarg_detail_view
	TestLookupUrlKwargs.test_retrieve_lookup_url_encoded_kwarg_detail_view
	TestTrailingSlashIncluded.test_urls_have_trailing_slash_by_default
	TestTrailingSlashRemoved.test_urls_can_have_trailing_slash_removed TestNameableRoot.test_router_has_custom_name
	TestActionKeywordArgs.test_action_kwargs
	TestActionAppliedToExistingRoute.test_exception_raised_when_action_applied_to_existing_route
	TestDynamicListAndDetailRouter.test_list_and_detail_route_decorators
	TestDynamicListAndDetailRouter.test_inherited_list_and_detail_route_decorators
	TestEmptyPrefix.test_empty_prefix_list TestEmptyPrefix.test_empty_prefix_detail
	TestRegexUrlPath.test_regex_url_path_list TestRegexUrlPath.test_regex_url_path_detail
	TestUrlPath.test_create TestUrlPath.test_retrieve TestUrlPath.test_list TestUrlPath.test_update
	TestUrlPath.test_delete TestUrlPath.test_list_extra_action TestUrlPath.test_detail_extra_action
	TestUrlPath.test_detail_extra_other_action TestUrlPath.test_defaultrouter_root
	TestViewInitkwargs.test_suffix TestViewInitkwargs.test_detail TestViewInitkwargs.test_basename` +
	drfBasenameMethods("TestDuplicateBasenameSimpleRouter") +
	drfBasenameMethods("TestDuplicateBasenameDefaultRouter") +
	drfBasenameMethods("TestDuplicateBasenameDefaultRouterRootViewName"))

func drfBasenameMethods(class string) string {
	var b strings.Builder
	for _, m := range strings.Fields(`test_conflicting_autogenerated_basenames test_conflicting_mixed_basenames
		test_nonconflicting_mixed_basenames test_conflicting_specified_basename test_nonconflicting_specified_basename
		test_nonconflicting_specified_basename_different_models test_conflicting_specified_basename_different_models
		test_nonconflicting_autogenerated_basename_different_models`) {
		b.WriteString(" " + class + "." + m)
	}
	return b.String()
}

// drfPathConverters is why TestUrlPath's extra actions of <int:...>
// parameters are DRF 3.18's alone.
const drfPathConverters = "DRF 3.15's use_regex_path=False: DRF 3.14 routes by regex alone, where <int:kwarg> is no parameter (a chi pattern serves both)"

// drfRoutersDuplicates are BasenameTestCase's methods that register a
// basename twice, which DRF 3.14 accepts.
var drfRoutersDuplicates = func() map[string]bool {
	m := map[string]bool{}
	for _, class := range []string{"TestDuplicateBasenameSimpleRouter", "TestDuplicateBasenameDefaultRouter", "TestDuplicateBasenameDefaultRouterRootViewName"} {
		for _, method := range []string{"test_conflicting_autogenerated_basenames", "test_conflicting_mixed_basenames",
			"test_conflicting_specified_basename", "test_conflicting_specified_basename_different_models"} {
			m[class+"."+method] = true
		}
	}
	return m
}()

// drfRoutersDiffer: a basename registered twice is refused at both
// levels.
var drfRoutersDiffer = func() map[string]string {
	m := map[string]string{}
	for name := range drfRoutersDuplicates {
		m["drf314:"+name] = "a basename registered twice is refused at both levels, as DRF 3.15 refuses it; DRF 3.14 registers both, and reverse finds one (docs/drf-differences.md, DRF's generic view tests)"
	}
	return m
}()

// TestDRFRouters runs DRF 3.18's tests/test_routers.py.
func TestDRFRouters(t *testing.T) {
	drfsuite.Suite{
		File:    "tests/test_routers.py",
		Methods: drfRoutersMethods,
		Items:   drfRoutersItems,
		Differ:  drfRoutersDiffer,
		Own314:  slices.Collect(maps.Keys(drfRoutersDuplicates)),
		Only318: map[string]string{
			"TestUrlPath.test_list_extra_action":         drfPathConverters,
			"TestUrlPath.test_detail_extra_action":       drfPathConverters,
			"TestUrlPath.test_detail_extra_other_action": drfPathConverters,
		},
		NotPortable: map[string]string{
			"TestUrlPath.test_defaultrouter_root": "Django's URL resolver: two routers name their routes alike and reverse finds the last included; one API names each route once",
		},
	}.Run(t)
}
