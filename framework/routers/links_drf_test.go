package routers_test

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
)

// linkOwner and linkItem are drf_links.py's LinkOwner and LinkItem.
type linkOwner struct {
	ID   int64  `db:"id" json:"-"`
	Name string `db:"name" json:"name" model:"max_length=20"`
}

func (linkOwner) Meta() models.Meta { return models.Meta{App: "links", Table: "link_owner"} }

type linkItem struct {
	ID      int64  `db:"id" json:"-"`
	Name    string `db:"name" json:"name" model:"max_length=20"`
	OwnerID int64  `db:"owner_id" json:"owner" model:"foreign_key=link_owner" drf:"view_name=linkowner-detail,display=name"`
}

func (linkItem) Meta() models.Meta { return models.Meta{App: "links", Table: "link_item"} }

// linkAnswer is one answer as drf_links.py reports it.
type linkAnswer struct {
	Status   int      `json:"status"`
	Location string   `json:"location"`
	Body     any      `json:"body"`
	Options  []string `json:"options"`
}

// ownerSelect and optionValue read the options of a page's selects of
// the owner.
var (
	ownerSelect = regexp.MustCompile(`(?s)<select[^>]*name="owner"[^>]*>(.*?)</select>`)
	optionValue = regexp.MustCompile(`<option value="([^"]*)"`)
)

// linkRequests are the requests of TestLinksKeepFormatSuffixAsDRF:
// [method, path, JSON body].
var linkRequests = [][3]string{
	{"GET", "/", ""},
	{"GET", "/.json", ""},
	{"GET", "/.json?format=json", ""},
	{"GET", "/?format=json", ""},
	{"GET", "/owners/", ""},
	{"GET", "/owners.json", ""},
	{"GET", "/owners.json/", ""},
	{"GET", "/owners/2.json", ""},
	{"GET", "/owners/2/?format=json", ""},
	{"GET", "/items.json", ""},
	{"GET", "/items.json?page=2", ""},
	{"GET", "/items/?page=2", ""},
	{"GET", "/items/?page=2&format=json", ""},
	{"GET", "/items/1.json", ""},
	{"GET", "/items/1.json/", ""},
	{"POST", "/items.json", `{"name":"d","owner":"http://testserver/owners/2.json"}`},
	{"POST", "/items/", `{"name":"e","owner":"/owners/1/"}`},
	{"PUT", "/items/4.json", `{"name":"d2","owner":"http://testserver/owners/1/"}`},
	{"GET", "/items.api", ""},
	{"GET", "/items/?format=api", ""},
	{"GET", "/items/1.api", ""},
	{"GET", "/links/", ""},
	{"GET", "/links.json", ""},
	{"GET", "/links/?format=json", ""},
}

// Links built through a request keep its format suffix as DRF 3.14 and
// 3.18 keep it (testdata/drf_links.py, run at each level): the API
// root's ("/.json" lists "/items.json"), a hyperlinked serializer's url
// and related links in lists, pages and details, the pages' next and
// previous links, the Location of a create, the browsable form's
// choices of a hyperlinked field (".api"), and a view's hand-made links
// (reverse.Link); ?format= is kept as a query.
func TestLinksKeepFormatSuffixAsDRF(t *testing.T) {
	in := make([][]any, len(linkRequests))
	for i, r := range linkRequests {
		var body any
		if r[2] != "" {
			if err := json.Unmarshal([]byte(r[2]), &body); err != nil {
				t.Fatal(err)
			}
		}
		in[i] = []any{r[0], r[1], body}
	}
	for _, level := range []struct {
		name   string
		compat framework.Compatibility
	}{{"drf314", framework.DRF314}, {"drf318", framework.DRF318}} {
		t.Run(level.name, func(t *testing.T) {
			var drf []linkAnswer
			drfsuite.RunDRF(t, level.compat, filepath.Join("testdata", "drf_links.py"), in, &drf)
			if len(drf) != len(linkRequests) {
				t.Fatalf("%d answers for %d requests", len(drf), len(linkRequests))
			}
			c := apitest.New(t, linksAPI(t, level.compat))
			for i, r := range linkRequests {
				resp := c.Do(r[0], r[1], r[2])
				got := linkAnswer{Status: resp.Status, Location: resp.Header.Get("Location")}
				switch ct := resp.Header.Get("Content-Type"); {
				case strings.HasPrefix(ct, "application/json"):
					if err := json.Unmarshal([]byte(resp.Body), &got.Body); err != nil {
						t.Fatalf("%s %s: %v", r[0], r[1], err)
					}
				case strings.HasPrefix(ct, "text/html"):
					got.Options = []string{}
					for _, sel := range ownerSelect.FindAllStringSubmatch(resp.Body, -1) {
						for _, m := range optionValue.FindAllStringSubmatch(sel[1], -1) {
							got.Options = append(got.Options, m[1])
						}
					}
				}
				if !reflect.DeepEqual(got, drf[i]) {
					t.Errorf("%s %s:\n got %+v\nwant %+v", r[0], r[1], got, drf[i])
				}
			}
		})
	}
}

// linksAPI is drf_links.py's DefaultRouter, owners and items, with its
// rows, on SQLite.
func linksAPI(t *testing.T, compat framework.Compatibility) *framework.API {
	t.Helper()
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	db.MustExec(`CREATE TABLE "link_owner" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(20) NOT NULL)`)
	db.MustExec(`CREATE TABLE "link_item" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(20) NOT NULL,
		"owner_id" integer NOT NULL REFERENCES "link_owner" ("id"))`)
	db.MustExec(`INSERT INTO "link_owner" ("name") VALUES ('ann'), ('bob')`)
	db.MustExec(`INSERT INTO "link_item" ("name", "owner_id") VALUES ('a', 1), ('b', 2), ('c', 1)`)
	owners := &generics.ReadOnlyModelViewSet[linkOwner]{}
	owners.Source = queryset.MustSQL[linkOwner](db, queryset.SQLConfig{})
	owners.Serializer = serializers.MustNew[linkOwner](serializers.HyperlinkedIdentity{Name: "url", Route: "linkowner-detail"},
		serializers.Fields("url", "name"))
	items := &generics.ModelViewSet[linkItem]{}
	items.Source = queryset.MustSQL[linkItem](db, queryset.SQLConfig{})
	items.Serializer = serializers.MustNew[linkItem](serializers.HyperlinkedIdentity{Name: "url", Route: "linkitem-detail"},
		serializers.Fields("url", "name", "owner"))
	items.Pagination = &pagination.PageNumberPagination{PageSize: 2}
	api := framework.NewAPI(nil, framework.Settings{Compatibility: compat,
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})})
	var router routers.DefaultRouter
	router.Register("owners", owners, "linkowner")
	router.Register("items", items, "linkitem")
	router.Mount(api)
	api.Handle("/links/", framework.View{Get: handLinks}, framework.Named("links"), framework.FormatSuffixes())
	return api
}

// handLinks is drf_links.py's links, the tutorial's hand-made api_root:
// reverse.Link keeps the request's format suffix, as reverse(...,
// format=format) does.
func handLinks(v *framework.View, r *request.Request) (*framework.Response, error) {
	owners, err := reverse.Link("linkowner-list", nil, r)
	if err != nil {
		return nil, err
	}
	item, err := reverse.Link("linkitem-detail", map[string]string{"pk": "1"}, r)
	if err != nil {
		return nil, err
	}
	return framework.OK(map[string]string{"owners": owners, "item": item}), nil
}
