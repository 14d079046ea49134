package reverse_test

import (
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_reverse.py, ported: each test method is an item
// named by its class and method, run at both compatibility levels with
// DRF's assertions. A versioning scheme's reverse is its reverse.Hook:
// MockVersioningScheme's URL of another host is a lookup on that host,
// and its NoReverseMatch a lookup of a name no route has.

// mockVersioningScheme is MockVersioningScheme: it reverses to
// "http://scheme-reversed/view", or finds no route when raiseError.
type mockVersioningScheme struct{ raiseError bool }

func (mockVersioningScheme) DetermineVersion(*request.Request, request.VersionConfig) (string, error) {
	return "", nil
}

func (m mockVersioningScheme) ReverseLookup(l *reverse.Lookup, _ *request.Request) {
	if m.raiseError {
		l.Name = "no-such-route"
		return
	}
	l.Host = "scheme-reversed"
}

// drfReversed is reverse('view', request=request) for a request of
// "/view" under scheme (versioning_scheme).
func drfReversed(t *testing.T, level framework.Compatibility, scheme request.Versioner) string {
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
	api.Handle("/view", framework.View{Versioning: scheme, Get: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		u, err := reverse.Reverse("view", nil, r)
		if err != nil {
			return framework.OK(map[string]string{"error": err.Error()}), nil
		}
		return framework.OK(map[string]string{"url": u}), nil
	}}, framework.Named("view"))
	var got map[string]string
	apitest.New(t, api).Get("/view").Decode(&got)
	return got["url"] + got["error"]
}

// drfReverseItems are the ported methods.
var drfReverseItems = []drfsuite.Item{
	{Name: "ReverseTests.test_reversed_urls_are_fully_qualified", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		c.Equal("url", drfReversed(t, level, nil), "http://testserver/view")
		return c
	}},
	{Name: "ReverseTests.test_reverse_with_versioning_scheme", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		c.Equal("url", drfReversed(t, level, mockVersioningScheme{}), "http://scheme-reversed/view")
		return c
	}},
	{Name: "ReverseTests.test_reverse_with_versioning_scheme_fallback_to_default_on_error", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		c.Equal("url", drfReversed(t, level, mockVersioningScheme{raiseError: true}), "http://testserver/view")
		return c
	}},
}

// TestDRFReverse runs DRF 3.18's tests/test_reverse.py.
func TestDRFReverse(t *testing.T) {
	drfsuite.Suite{
		File: "tests/test_reverse.py",
		Methods: []string{"ReverseTests.test_reversed_urls_are_fully_qualified", "ReverseTests.test_reverse_with_versioning_scheme",
			"ReverseTests.test_reverse_with_versioning_scheme_fallback_to_default_on_error"},
		Items:       drfReverseItems,
		Differ:      map[string]string{},
		NotPortable: map[string]string{},
	}.Run(t)
}
