package versioning_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/versioning"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_versioning.py, ported: each test method is an
// item named by its class and method, run at both compatibility levels
// with DRF's assertions. A view called with a request (view(request,
// version=...)) is a view mounted where the request's path routes it:
// "/endpoint/", "/{version}/endpoint/" for the URL path scheme's
// version=, and "/v1/endpoint/" in the namespace "v1" for a
// FakeResolverMatch of namespace "v1". A scheme with allowed_versions or
// default_version set in determine_version is a view with its
// AllowedVersions and DefaultVersion; a None among the allowed versions
// is "".

// drfRequestVersion is RequestVersionView: {"version": request.version}.
func drfRequestVersion(_ *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]any{"version": nullable(r.Version())}), nil
}

// drfReverseView is ReverseView: {"url": reverse('another', request=request)}.
func drfReverseView(_ *framework.View, r *request.Request) (*framework.Response, error) {
	u, err := reverse.Reverse("another", nil, r)
	if err != nil {
		return nil, err
	}
	return framework.OK(map[string]any{"url": u}), nil
}

// drfVersioningAPI mounts view at "/endpoint/" and
// "/{version}/endpoint/" and names TestURLReversing's urlpatterns:
// "another" at "/another/" and at "/{version}/another/", and
// "unversioned" at "/{foo}/unversioned/"; when its scheme is
// NamespaceVersioning, it mounts it in the namespaces v1 and v3 at
// "/v1/endpoint/" and "/v3/endpoint/", with "v1:another" at
// "/v1/namespaced/" and "v1:example-detail" at "/v1/example/{pk}/".
func drfVersioningAPI(t *testing.T, level framework.Compatibility, view framework.View) (*framework.API, *apitest.Client) {
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
	api.Handle("/endpoint/", view)
	api.Handle("/{version}/endpoint/", view)
	// A sub-router at "/v1" takes every path under it: it is mounted for
	// the namespace scheme alone, whose requests "/v1/endpoint/" are.
	if _, namespaced := view.Versioning.(versioning.NamespaceVersioning); namespaced {
		for _, ns := range []string{"v1", "v3"} {
			api.Route("/"+ns, ns, func(api *framework.API) {
				api.Handle("/endpoint/", view)
				if ns == "v1" {
					api.Handle("/namespaced/", view, framework.Named("another"))
					api.Handle("/example/{pk:[0-9]+}/", view, framework.Named("example-detail"))
				}
			})
		}
	}
	api.Routes().Add("another", "/another/")
	api.Routes().Add("another", "/{version:[v1|v2]+}/another/")
	api.Routes().Add("unversioned", "/{foo:.+}/unversioned/")
	return api, apitest.New(t, api)
}

// drfVersionAnswers checks the answers to GETs of a view: each call is a
// path and its headers, each answer a status and a JSON body ("" for any).
func drfVersionAnswers(t *testing.T, level framework.Compatibility, view framework.View, calls ...[3]string) []string {
	var c drfsuite.Checks
	_, client := drfVersioningAPI(t, level, view)
	for _, call := range calls {
		var header []string
		if call[1] != "" {
			header = strings.Split(call[1], "\n")
		}
		r := client.Get(call[0], header...)
		status, body, _ := strings.Cut(call[2], " ")
		c.Equal("GET "+call[0]+" "+call[1]+": status", r.Status, map[string]int{"200": 200, "404": 404, "406": 406}[status])
		if body != "" {
			c.JSON("GET "+call[0]+" "+call[1]+": data", r.Body, body)
		}
	}
	return c
}

// drfAllowed is AllowedVersionsView, AllowedAndDefaultVersionsView and
// the like: the view with allowed_versions and default_version set.
func drfAllowed(get framework.HandlerFunc, scheme request.Versioner, def string, allowed ...string) framework.View {
	return framework.View{Get: get, Versioning: scheme, DefaultVersion: def, AllowedVersions: framework.Versions(allowed...)}
}

// drfPlain is the view with versioning_class=scheme.
func drfPlain(get framework.HandlerFunc, scheme request.Versioner) framework.View {
	return framework.View{Get: get, Versioning: scheme}
}

// drfLinked holds HyperlinkedRelatedField(view_name='namespaced'): a
// foreign key, linked by the route of its drf tag; drfNested and
// drfNonAPI link by "nested" and "non-api-view".
type drfLinked struct {
	ID     int64 `db:"id" json:"id"`
	Target int64 `db:"target_id" json:"target" model:"foreign_key=tests_namespaced" drf:"view_name=namespaced"`
}

func (drfLinked) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "Linked", Table: "tests_linked"}
}

type drfNested struct {
	ID     int64 `db:"id" json:"id"`
	Target int64 `db:"target_id" json:"target" model:"foreign_key=tests_namespaced" drf:"view_name=nested"`
}

func (drfNested) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "Nested", Table: "tests_nested"}
}

type drfNonAPI struct {
	ID     int64 `db:"id" json:"id"`
	Target int64 `db:"target_id" json:"target" model:"foreign_key=tests_namespaced" drf:"view_name=non-api-view"`
}

func (drfNonAPI) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "NonAPI", Table: "tests_nonapi"}
}

// fixedVersion is the scheme of a request given NamespaceVersioning and a
// version outright (request.versioning_scheme = NamespaceVersioning();
// request.version = ...): it determines Version, and reverses as
// NamespaceVersioning does.
type fixedVersion struct {
	versioning.NamespaceVersioning
	Version string
}

func (f fixedVersion) DetermineVersion(*request.Request, request.VersionConfig) (string, error) {
	return f.Version, nil
}

// drfHyperlinkedAPI is TestNamespaceVersioningHyperlinkedRelatedFieldScheme's
// urlpatterns: "namespaced/<pk>/" and, under "nested/" in the namespace
// "nested-namespace", "namespaced/<pk>/" named "nested", in the
// namespaces v1 and v2; and "non-api/<pk>/" named "non-api-view". Its
// "/" view, in the version given, answers the field's representation of
// an object of pk 3, 5 and 10 (to_representation), and its POST the
// key a link names or the field's error (to_internal_value).
func drfHyperlinkedAPI[T any](t *testing.T, level framework.Compatibility, version string, set func(*T, int64)) *apitest.Client {
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
	s := serializers.MustNew[T]()
	dummy := framework.View{Get: func(*framework.View, *request.Request) (*framework.Response, error) { return framework.OK(nil), nil }}
	for _, ns := range []string{"v1", "v2"} {
		api.Route("/"+ns, ns, func(api *framework.API) {
			api.Handle("/namespaced/{pk:[0-9]+}/", dummy, framework.Named("namespaced"))
			api.Route("/nested", "nested-namespace", func(api *framework.API) {
				api.Handle("/namespaced/{pk:[0-9]+}/", dummy, framework.Named("nested"))
			})
		})
	}
	api.Handle("/non-api/{pk:[0-9]+}/", dummy, framework.Named("non-api-view"))
	api.Handle("/", framework.View{
		Versioning: fixedVersion{Version: version},
		Get: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
			out := map[string]any{}
			for _, pk := range []int64{3, 5, 10} {
				var obj T
				set(&obj, pk)
				v, err := s.Value("target", &obj, &serializers.Context{Request: r})
				if err != nil {
					return nil, err
				}
				out[strconv.FormatInt(pk, 10)] = v
			}
			return framework.OK(out), nil
		},
		Post: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
			data, err := serializers.RequestData(r)
			if err != nil {
				return nil, err
			}
			var obj T
			// MockQueryset.get(pk) finds every object.
			related := func(l serializers.RelatedLookup) (string, bool, error) { return l.Value, true, nil }
			if err := s.Validate(data, &obj, true, &serializers.Context{Request: r, Related: related}); err != nil {
				return nil, err
			}
			return framework.OK(obj), nil
		},
	})
	return apitest.New(t, api)
}

// drfRepresentations checks the field's representation of pk 3, 5 and 10
// at version against want's.
func drfRepresentations[T any](t *testing.T, level framework.Compatibility, version string, set func(*T, int64), want map[int64]string) []string {
	var c drfsuite.Checks
	client := drfHyperlinkedAPI(t, level, version, set)
	r := client.Get("/")
	c.Equal("status", r.Status, 200)
	got := map[string]any{}
	if r.Status == 200 {
		got = r.JSON()
	}
	for pk, url := range want {
		key := strconv.FormatInt(pk, 10)
		c.Equal("to_representation(PKOnlyObject("+key+"))", got[key], url)
	}
	return c
}

func setLinked(o *drfLinked, pk int64) { o.Target = pk }
func setNested(o *drfNested, pk int64) { o.Target = pk }
func setNonAPI(o *drfNonAPI, pk int64) { o.Target = pk }

// drfVersioningItems are the ported methods.
var drfVersioningItems = []drfsuite.Item{
	{Name: "TestRequestVersion.test_unversioned", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfRequestVersion, nil),
			[3]string{"/endpoint/", "", `200 {"version":null}`})
	}},
	{Name: "TestRequestVersion.test_query_param_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfRequestVersion, versioning.QueryParameterVersioning{}),
			[3]string{"/endpoint/?version=1.2.3", "", `200 {"version":"1.2.3"}`},
			[3]string{"/endpoint/", "", `200 {"version":null}`})
	}},
	{Name: "TestRequestVersion.test_host_name_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfRequestVersion, versioning.HostNameVersioning{}),
			[3]string{"/endpoint/", "Host: v1.example.org", `200 {"version":"v1"}`},
			[3]string{"/endpoint/", "", `200 {"version":null}`})
	}},
	{Name: "TestRequestVersion.test_accept_header_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfRequestVersion, versioning.AcceptHeaderVersioning{}),
			[3]string{"/endpoint/", "Accept: application/json; version=1.2.3", `200 {"version":"1.2.3"}`},
			[3]string{"/endpoint/", "Accept: */*; version=1.2.3", `200 {"version":"1.2.3"}`},
			[3]string{"/endpoint/", "Accept: application/json", `200 {"version":null}`})
	}},
	{Name: "TestRequestVersion.test_url_path_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfRequestVersion, versioning.URLPathVersioning{}),
			[3]string{"/1.2.3/endpoint/", "", `200 {"version":"1.2.3"}`},
			[3]string{"/endpoint/", "", `200 {"version":null}`})
	}},
	{Name: "TestRequestVersion.test_namespace_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfRequestVersion, versioning.NamespaceVersioning{}),
			[3]string{"/v1/endpoint/", "", `200 {"version":"v1"}`},
			[3]string{"/endpoint/", "", `200 {"version":null}`})
	}},
	{Name: "TestURLReversing.test_reverse_unversioned", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfReverseView, nil),
			[3]string{"/endpoint/", "", `200 {"url":"http://testserver/another/"}`})
	}},
	{Name: "TestURLReversing.test_reverse_query_param_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfReverseView, versioning.QueryParameterVersioning{}),
			[3]string{"/endpoint/?version=v1", "", `200 {"url":"http://testserver/another/?version=v1"}`},
			[3]string{"/endpoint/", "", `200 {"url":"http://testserver/another/"}`})
	}},
	{Name: "TestURLReversing.test_reverse_host_name_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfReverseView, versioning.HostNameVersioning{}),
			[3]string{"/endpoint/", "Host: v1.example.org", `200 {"url":"http://v1.example.org/another/"}`},
			[3]string{"/endpoint/", "", `200 {"url":"http://testserver/another/"}`})
	}},
	{Name: "TestURLReversing.test_reverse_url_path_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		unversioned := func(_ *framework.View, r *request.Request) (*framework.Response, error) {
			u, err := reverse.Reverse("unversioned", map[string]string{"foo": "bar"}, r)
			if err != nil {
				return nil, err
			}
			return framework.OK(map[string]any{"url": u}), nil
		}
		c = append(c, drfVersionAnswers(t, level, drfPlain(drfReverseView, versioning.URLPathVersioning{}),
			[3]string{"/v1/endpoint/", "", `200 {"url":"http://testserver/v1/another/"}`},
			[3]string{"/endpoint/", "", `200 {"url":"http://testserver/another/"}`})...)
		// The fallback when kwargs is not None.
		c = append(c, drfVersionAnswers(t, level, drfPlain(unversioned, versioning.URLPathVersioning{}),
			[3]string{"/v1/endpoint/", "", `200 {"url":"http://testserver/bar/unversioned/"}`})...)
		return c
	}},
	{Name: "TestURLReversing.test_reverse_namespace_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfPlain(drfReverseView, versioning.NamespaceVersioning{}),
			[3]string{"/v1/endpoint/", "", `200 {"url":"http://testserver/v1/namespaced/"}`},
			[3]string{"/endpoint/", "", `200 {"url":"http://testserver/another/"}`})
	}},
	{Name: "TestInvalidVersion.test_invalid_query_param_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.QueryParameterVersioning{}, "", "v1", "v2"),
			[3]string{"/endpoint/?version=v3", "", "404"})
	}},
	{Name: "TestInvalidVersion.test_invalid_host_name_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.HostNameVersioning{}, "", "v1", "v2"),
			[3]string{"/endpoint/", "Host: v3.example.org", "404"})
	}},
	{Name: "TestInvalidVersion.test_invalid_accept_header_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.AcceptHeaderVersioning{}, "", "v1", "v2"),
			[3]string{"/endpoint/", "Accept: application/json; version=v3", "406"})
	}},
	{Name: "TestInvalidVersion.test_invalid_url_path_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.URLPathVersioning{}, "", "v1", "v2"),
			[3]string{"/v3/endpoint/", "", "404"})
	}},
	{Name: "TestInvalidVersion.test_invalid_namespace_versioning", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.NamespaceVersioning{}, "", "v1", "v2"),
			[3]string{"/v3/endpoint/", "", "404"})
	}},
	{Name: "TestAllowedAndDefaultVersion.test_missing_without_default", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.AcceptHeaderVersioning{}, "", "v1", "v2"),
			[3]string{"/endpoint/", "Accept: application/json", "406"})
	}},
	{Name: "TestAllowedAndDefaultVersion.test_missing_with_default", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.AcceptHeaderVersioning{}, "v2", "v1", "v2"),
			[3]string{"/endpoint/", "Accept: application/json", `200 {"version":"v2"}`})
	}},
	{Name: "TestAllowedAndDefaultVersion.test_with_default", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.AcceptHeaderVersioning{}, "v2", "v1", "v2"),
			[3]string{"/endpoint/", "Accept: application/json; version=v2", "200"})
	}},
	{Name: "TestAllowedAndDefaultVersion.test_missing_without_default_but_none_allowed", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.AcceptHeaderVersioning{}, "", "v1", "v2", ""),
			[3]string{"/endpoint/", "Accept: application/json", `200 {"version":null}`})
	}},
	{Name: "TestAllowedAndDefaultVersion.test_missing_with_default_and_none_allowed", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfVersionAnswers(t, level, drfAllowed(drfRequestVersion, versioning.AcceptHeaderVersioning{}, "v2", "v1", "v2", ""),
			[3]string{"/endpoint/", "Accept: application/json", `200 {"version":"v2"}`})
	}},
	{Name: "TestHyperlinkedRelatedField.test_bug_2489", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		client := drfHyperlinkedAPI(t, level, "v1", setLinked)
		r := client.Post("/", `{"target":"/v1/namespaced/3/"}`)
		c.Equal("to_internal_value('/v1/namespaced/3/'): status", r.Status, 200)
		c.JSON("to_internal_value('/v1/namespaced/3/')", r.Body, `{"id":0,"target":3}`)
		r = client.Post("/", `{"target":"/v2/namespaced/3/"}`)
		c.Equal("to_internal_value('/v2/namespaced/3/') raises ValidationError: status", r.Status, 400)
		return c
	}},
	{Name: "TestNamespaceVersioningHyperlinkedRelatedFieldScheme.test_api_url_is_properly_reversed_with_v1", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfRepresentations(t, level, "v1", setLinked, map[int64]string{3: "http://testserver/v1/namespaced/3/"})
	}},
	{Name: "TestNamespaceVersioningHyperlinkedRelatedFieldScheme.test_api_url_is_properly_reversed_with_v2", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfRepresentations(t, level, "v2", setLinked, map[int64]string{5: "http://testserver/v2/namespaced/5/"})
	}},
	{Name: "TestNamespaceVersioningHyperlinkedRelatedFieldScheme.test_api_url_is_properly_reversed_with_nested", Run: func(t *testing.T, level framework.Compatibility) []string {
		return drfRepresentations(t, level, "v1:nested-namespace", setNested, map[int64]string{3: "http://testserver/v1/nested/namespaced/3/"})
	}},
	{Name: "TestNamespaceVersioningHyperlinkedRelatedFieldScheme.test_non_api_url_is_properly_reversed_regardless_of_the_version", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		for _, version := range []string{"v1", "v2"} {
			c = append(c, drfRepresentations(t, level, version, setNonAPI, map[int64]string{10: "http://testserver/non-api/10/"})...)
		}
		return c
	}},
}

// TestDRFVersioning runs DRF 3.18's tests/test_versioning.py.
func TestDRFVersioning(t *testing.T) {
	drfsuite.Suite{
		File:        "tests/test_versioning.py",
		Methods:     drfVersioningMethods(),
		Items:       drfVersioningItems,
		Differ:      map[string]string{},
		NotPortable: map[string]string{},
		Only318: map[string]string{
			"TestURLReversing.test_reverse_url_path_versioning": "DRF 3.15's fix (#7247): DRF 3.14's URLPathVersioning.reverse adds the version to the caller's kwargs, so that the fallback to the plain reverse fails too",
		},
	}.Run(t)
}

// drfVersioningMethods are test_versioning.py's methods: every item's.
func drfVersioningMethods() []string {
	var m []string
	for _, it := range drfVersioningItems {
		m = append(m, it.Name)
	}
	return m
}
