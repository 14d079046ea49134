package routers_test

import (
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
)

// linked is an item with hyperlinks to its route and its highlight.
type linked struct {
	ID int `db:"id" json:"-"`
}

var linkSerializer = serializers.MustNew[linked](
	serializers.HyperlinkedIdentity{Name: "url", Route: "snippet-detail"},
	serializers.HyperlinkedIdentity{Name: "highlight", Route: "snippet-highlight", Format: "html"},
)

// links lists one linked item.
type links struct{ plain }

func (links) List(v *framework.View, r *request.Request) (*framework.Response, error) {
	data, err := linkSerializer.Many([]*linked{{ID: 1}}, &serializers.Context{Request: r})
	if err != nil {
		return nil, err
	}
	return framework.OK(data), nil
}

// Hyperlinks carry the request's format suffix, or their own Format when
// the request has one, and keep the request's ?format=: DRF 3.14's
// answers for HyperlinkedIdentityField(view_name='snippet-detail') and
// HyperlinkedIdentityField(view_name='snippet-highlight', format='html')
// under a DefaultRouter.
func TestHyperlinksFormat(t *testing.T) {
	vs := &snippets{}
	var router routers.DefaultRouter
	router.Register("snippets", vs, "snippet", routers.Action{Name: "Highlight", Handler: vs.Highlight, Detail: true,
		Renderers: framework.Renderers(framework.StaticHTMLRenderer{})})
	router.Register("links2", &links{}, "links2")
	api := framework.NewAPI(nil, framework.Settings{})
	router.Mount(api)
	c := apitest.New(t, api)
	for path, want := range map[string]string{
		"/links2/":               `[{"url":"http://testserver/snippets/1/","highlight":"http://testserver/snippets/1/highlight/"}]`,
		"/links2.json":           `[{"url":"http://testserver/snippets/1.json","highlight":"http://testserver/snippets/1/highlight.html"}]`,
		"/links2/?format=json":   `[{"url":"http://testserver/snippets/1/?format=json","highlight":"http://testserver/snippets/1/highlight/?format=json"}]`,
		"/links2.json?format=js": `[{"url":"http://testserver/snippets/1.json?format=js","highlight":"http://testserver/snippets/1/highlight.html?format=js"}]`,
	} {
		if r := c.Get(path); r.Status != 200 || r.Body != want {
			t.Errorf("%s: %d %s\nwant %s", path, r.Status, r.Body, want)
		}
	}
}
