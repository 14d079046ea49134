package framework_test

import (
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// What DRF 3.14's get_view_name gives each class or function name
// (formatting.camelcase_to_spaces after the "View"/"ViewSet" suffix).
func TestViewName(t *testing.T) {
	for name, want := range map[string]string{
		"SnippetDetail": "Snippet Detail", "snippet_list": "Snippet List", "snippetList": "Snippet List",
		"APIRoot": "Api Root", "SnippetViewSet": "Snippet", "UserListView": "User List", "HTMLPage": "Html Page",
		"XMLHttpRequestView": "Xml Http Request", "Snippet2Detail": "Snippet2 Detail", "a_b_c": "A B C", "ABC": "Abc",
	} {
		if got := framework.ViewName(name); got != want {
			t.Errorf("ViewName(%q) = %q, want %q", name, got, want)
		}
	}
}

// SnippetDetail is a hand-written view type, as DRF's class-based views.
type SnippetDetail struct{}

func (*SnippetDetail) Get(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(framework.Object{{"z", 1}, {"a", v.Name}}), nil
}

func snippetList(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(framework.Object{{"name", v.Name}, {"list", []int{1}}}), nil
}

// A view without a Name is named from its handler, as DRF names a view
// from its class or function (OPTIONS "name", the browsable page's
// title); a closure names nothing; a Name is kept. framework.Object
// keeps its keys' order, as a hand-written API root's dict does.
func TestDerivedViewNames(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/detail/", framework.View{Get: (&SnippetDetail{}).Get})
	api.Handle("/list/", framework.View{Get: snippetList})
	api.Handle("/named/", framework.View{Name: "Mine", Get: snippetList})
	api.Handle("/closure/", framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(framework.Object{{"name", v.Name}}), nil
	}})
	c := apitest.New(t, api)
	for path, want := range map[string]string{
		"/detail/":  `{"z":1,"a":"Snippet Detail"}`,
		"/list/":    `{"name":"Snippet List","list":[1]}`,
		"/named/":   `{"name":"Mine","list":[1]}`,
		"/closure/": `{"name":""}`,
	} {
		if r := c.Get(path); r.Body != want {
			t.Errorf("%s: %d %s, want %s", path, r.Status, r.Body, want)
		}
	}
	if r := c.Do("OPTIONS", "/detail/", ""); r.JSON()["name"] != "Snippet Detail" {
		t.Errorf("OPTIONS: %s", r.Body)
	}
}
