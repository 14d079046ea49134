package generics_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
)

type note struct {
	ID    int    `db:"id" json:"id"`
	Title string `db:"title" json:"title"`
}

// TestSearchedPagesFollowTheirLinks: the search filter and the paginator
// read one query string, decoded as Django's QueryDict decodes it (a bad
// escape such as "100%" kept as it is, "+" a space), so that ?search=100%
// finds what DRF finds, and every next link of a searched list leads to
// the next page of the same search, to its end.
func TestSearchedPagesFollowTheirLinks(t *testing.T) {
	notes := []note{{1, "100% cotton"}, {2, "100 days"}, {3, "a+b"}, {4, "a b"}, {5, "50%"}, {6, "100%"}, {7, "naïve 100"}, {8, "%zz"}}
	api := framework.NewAPI(nil, framework.Settings{Pagination: &pagination.PageNumberPagination{}, PageSize: 1})
	api.Handle("/notes/", generics.ListAPIView(generics.GenericAPIView[note]{
		Source:         queryset.MustSlice(notes, query.Order{Field: "id"}),
		Serializer:     serializers.MustNew[note](),
		FilterBackends: framework.FilterBackends(filters.SearchFilter{Fields: []string{"title"}}),
	}))
	c := apitest.New(t, api)
	for search, want := range map[string][]int{
		"100%":       {1, 6},
		"100%25":     {1, 6},
		"100":        {1, 2, 6, 7},
		"a+b":        {3, 4},
		"a%2Bb":      {3},
		"%zz":        {8},
		"na%C3%AFve": {7},
		"%":          {1, 5, 6, 8},
	} {
		var got []int
		link := "/notes/?search=" + search
		for page := 0; link != "" && page < 10; page++ {
			r := c.Get(link)
			var body struct {
				Count   int
				Next    *string
				Results []note
			}
			r.Decode(&body)
			if r.Status != 200 || body.Count != len(want) {
				t.Errorf("?search=%s: GET %s: %d %s, want count %d", search, link, r.Status, r.Body, len(want))
				break
			}
			for _, n := range body.Results {
				got = append(got, n.ID)
			}
			link = ""
			if body.Next != nil {
				link = strings.TrimPrefix(*body.Next, "http://testserver")
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("?search=%s: walked %v, want %v", search, got, want)
		}
	}
}

// DEFAULT_FILTER_BACKENDS: a view that sets no filter backends takes the
// settings', for its lists, its detail lookups and its schema
// parameters; one that sets an empty list has none, as a view with
// filter_backends = [] in DRF.
func TestDefaultFilterBackends(t *testing.T) {
	notes := []note{{1, "go"}, {2, "python"}, {3, "golang"}}
	api := framework.NewAPI(nil, framework.Settings{
		FilterBackends: framework.FilterBackends(filters.SearchFilter{Fields: []string{"title"}}),
	})
	view := func(backends framework.List[framework.FilterBackend]) framework.View {
		return generics.RetrieveAPIView(generics.GenericAPIView[note]{
			Source:         queryset.MustSlice(notes, query.Order{Field: "id"}),
			Serializer:     serializers.MustNew[note](),
			FilterBackends: backends,
		})
	}
	list := func(backends framework.List[framework.FilterBackend]) framework.View {
		return generics.ListAPIView(generics.GenericAPIView[note]{
			Source:         queryset.MustSlice(notes, query.Order{Field: "id"}),
			Serializer:     serializers.MustNew[note](),
			FilterBackends: backends,
		})
	}
	var unset framework.List[framework.FilterBackend]
	api.Handle("/default/", list(unset))
	api.Handle("/default/{pk}/", view(unset))
	api.Handle("/none/", list(framework.FilterBackends()))
	api.Handle("/none/{pk}/", view(framework.FilterBackends()))
	c := apitest.New(t, api)
	for path, want := range map[string]string{
		"/default/?search=go":   `[{"id":1,"title":"go"},{"id":3,"title":"golang"}]`,
		"/none/?search=go":      `[{"id":1,"title":"go"},{"id":2,"title":"python"},{"id":3,"title":"golang"}]`,
		"/default/2/?search=go": `{"detail":"No note matches the given query."}`,
		"/none/2/?search=go":    `{"id":2,"title":"python"}`,
	} {
		if r := c.Get(path); r.Body != want {
			t.Errorf("GET %s: %d %s, want %s", path, r.Status, r.Body, want)
		}
	}
}
