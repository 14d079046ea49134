package routers_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
)

// drfRouters is what testdata/drf_routers.py prints at one level.
type drfRouters struct {
	Versions      map[string]string     `json:"versions"`
	URLs          map[string][][]string `json:"urls"`
	Actions       []drfExchange         `json:"actions"`
	Lookups       []drfExchange         `json:"lookups"`
	ReverseUUID   string                `json:"reverse_uuid"`
	Basename      string                `json:"default_basename"`
	UUIDLink      any                   `json:"uuid_link"`
	ExtraActions  map[string][][]string `json:"extra_actions"`
	ExistingRoute string                `json:"existing_route"`
}

// drfExchange is one request of drf_routers.py and DRF's answer; Seen
// holds the actions get_serializer_class saw.
type drfExchange struct {
	Method string                 `json:"method"`
	Path   string                 `json:"path"`
	Status int                    `json:"status"`
	Body   any                    `json:"body"`
	Seen   []framework.ViewAction `json:"seen"`
}

// loadRouters runs testdata/drf_routers.py on level's DRF
// (drfsuite.RunDRF).
func loadRouters(t *testing.T, level framework.Compatibility) drfRouters {
	t.Helper()
	var d drfRouters
	drfsuite.RunDRF(t, level, "testdata/drf_routers.py", nil, &d)
	if len(d.Actions) == 0 || len(d.Lookups) == 0 || len(d.ExtraActions) == 0 {
		t.Fatal("no exchanges")
	}
	return d
}

// routerNote is drf_routers.py's RouterNote; its Go name differs from
// the model's, which the 404 names.
type routerNote struct {
	ID   int64  `db:"id" json:"id" drf:"read_only"`
	UUID string `db:"uuid" json:"uuid" model:"max_length=20"`
	Text string `db:"text" json:"text" model:"max_length=100"`
}

func (routerNote) Meta() models.Meta {
	return models.Meta{App: "notes", Name: "RouterNote", Table: "router_note"}
}

var (
	noteSerializer = serializers.MustNew[routerNote](serializers.Fields("id", "uuid", "text"))
	textSerializer = serializers.MustNew[routerNote](serializers.Fields("text"))
)

// noteViewSet is drf_routers.py's NoteViewSet: the serializer by action,
// each action the serializer is asked for recorded in seen.
type noteViewSet struct {
	generics.ModelViewSet[routerNote]
	seen []framework.ViewAction
}

func (s *noteViewSet) serializerFor(v *framework.View, r *request.Request) *serializers.Serializer[routerNote] {
	s.seen = append(s.seen, v.Action(r))
	if v.Action(r) == framework.ActionList {
		return textSerializer
	}
	return noteSerializer
}

func (s *noteViewSet) Recent(v *framework.View, r *request.Request) (*framework.Response, error) {
	if _, err := s.GetSerializer(v, r); err != nil {
		return nil, err
	}
	return framework.OK(map[string]any{"action": v.Action(r)}), nil
}

func (s *noteViewSet) SetPassword(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]any{"action": v.Action(r), "pk": r.PathValue("pk")}), nil
}

func (s *noteViewSet) Both(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]any{"action": v.Action(r)}), nil
}

// noteActions are NoteViewSet's extra actions.
func noteActions(vs *noteViewSet) []routers.Action {
	return []routers.Action{
		{Name: "Recent", Handler: vs.Recent},
		{Name: "SetPassword", Handler: vs.SetPassword, Detail: true, HTTPMethods: []string{"PUT"},
			Mapping: []routers.Mapped{{Method: "DELETE", Name: "UnsetPassword", Handler: vs.SetPassword}}},
		{Name: "Both", Handler: vs.Both, HTTPMethods: []string{"GET", "POST"}},
	}
}

// notesDB is drf_routers.py's database: notes a1 "hello" and b2 "world".
func notesDB(t *testing.T) queryset.Source[routerNote] {
	t.Helper()
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	db.MustExec(`CREATE TABLE "router_note" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "uuid" varchar(20) NOT NULL, "text" varchar(100) NOT NULL)`)
	db.MustExec(`INSERT INTO "router_note" ("uuid", "text") VALUES ('a1', 'hello'), ('b2', 'world')`)
	return queryset.MustSQL[routerNote](db, queryset.SQLConfig{})
}

// lookupViewSets are drf_routers.py's UUIDViewSet, ContainsViewSet and
// RegexViewSet, registered on router.
func lookupViewSets(router *routers.SimpleRouter, src queryset.Source[routerNote]) {
	for _, vs := range []struct {
		prefix, basename, field, regex string
	}{{"uuids", "uuid", "uuid", ""}, {"contains", "contains", "text__contains", ""}, {"regex", "regex", "", "[0-9]+"}} {
		s := &generics.ReadOnlyModelViewSet[routerNote]{}
		s.Source, s.Serializer, s.LookupField, s.LookupValueRegex = src, noteSerializer, vs.field, vs.regex
		router.Register(vs.prefix, s, vs.basename)
	}
}

var drfGroup = regexp.MustCompile(`\(\?P<(\w+)>([^)]*)\)`)

// chiPattern is the chi pattern of a DRF route's regex:
// "^notes/(?P<pk>[^/.]+)/$" is "/notes/{pk:[^/.]+}/".
func chiPattern(re string) string {
	re = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(re, "^"), "$"), `\Z`)
	return "/" + drfGroup.ReplaceAllString(re, "{$1:$2}")
}

// routes are api's routes as DRF lists them, [chi pattern, name], sorted.
func routes(api *framework.API) [][]string {
	var got [][]string
	for _, e := range api.Endpoints() {
		got = append(got, []string{e.Pattern, e.Name})
	}
	slices.SortFunc(got, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return got
}

// TestRoutersAsDRF: each router's routes, view.action in
// get_serializer_class and the extra actions (per-method mapping
// included), lookups by another field, by a Django lookup and under a
// lookup_value_regex, and the 404 naming the model, as DRF 3.14 and 3.18
// answer them (testdata/drf_routers.py).
func TestRoutersAsDRF(t *testing.T) {
	for level, compat := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			drf := loadRouters(t, compat)
			src := notesDB(t)
			vs := &noteViewSet{}
			vs.Source, vs.SerializerFor = src, vs.serializerFor

			built := map[string]*framework.API{}
			build := func(name string, mount func(api *framework.API)) {
				api := framework.NewAPI(nil, framework.Settings{Compatibility: compat})
				mount(api)
				built[name] = api
			}
			build("actions", func(api *framework.API) {
				var r routers.SimpleRouter
				r.Register("notes", vs, "note", noteActions(vs)...)
				r.Mount(api)
			})
			build("lookups", func(api *framework.API) {
				var r routers.SimpleRouter
				lookupViewSets(&r, src)
				r.Mount(api)
			})
			flat := func(api *framework.API) {
				r := routers.DefaultRouter{SimpleRouter: routers.SimpleRouter{NoTrailingSlash: true}}
				s := &generics.ReadOnlyModelViewSet[routerNote]{}
				s.Source, s.Serializer, s.LookupValueRegex = src, noteSerializer, "[0-9]+"
				r.Register("flat", s, "flat")
				r.Mount(api)
			}
			build("default_no_trailing_slash", flat)
			build("served", func(api *framework.API) {
				var r routers.SimpleRouter
				lookupViewSets(&r, src)
				r.Mount(api)
				flat(api)
			})
			build("no_trailing_slash", func(api *framework.API) {
				r := routers.SimpleRouter{NoTrailingSlash: true}
				r.Register("notes", &noteViewSet{ModelViewSet: vs.ModelViewSet}, "note", noteActions(vs)...)
				s := &generics.ReadOnlyModelViewSet[routerNote]{}
				s.Source, s.Serializer, s.LookupValueRegex = src, noteSerializer, "[0-9]+"
				r.Register("regex", s, "regex")
				r.Mount(api)
			})
			build("root", func(api *framework.API) {
				r := routers.DefaultRouter{RootName: "root", NoFormatSuffixes: true}
				r.Register("notes", vs, "note", noteActions(vs)...)
				r.Mount(api)
			})
			for name, drfURLs := range drf.URLs {
				// The format-suffixed twins of a route are not endpoints.
				var want [][]string
				for _, w := range drfURLs {
					if !strings.Contains(w[0], "<format>") {
						want = append(want, []string{chiPattern(w[0]), w[1]})
					}
				}
				slices.SortFunc(want, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
				if got := routes(built[name]); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: routes\n got %q\nwant %q", name, got, want)
				}
			}

			check := func(c *apitest.Client, x drfExchange, body string) {
				t.Helper()
				r := c.Do(x.Method, x.Path, body, "Content-Type: application/json")
				if r.Status != x.Status {
					t.Errorf("%s %s = %d %s, DRF %d", x.Method, x.Path, r.Status, r.Body, x.Status)
					return
				}
				if x.Body == nil {
					return
				}
				var got any
				if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
					t.Fatalf("%s %s: %v: %s", x.Method, x.Path, err, r.Body)
				}
				if x.Method == "OPTIONS" {
					got = got.(map[string]any)["actions"]
				}
				if !reflect.DeepEqual(got, x.Body) {
					t.Errorf("%s %s = %s, DRF %v", x.Method, x.Path, r.Body, x.Body)
				}
			}
			bodies := map[string]string{"POST": `{"uuid":"c3","text":"new"}`, "PUT": `{"uuid":"a1","text":"hello"}`, "PATCH": `{"text":"hello"}`}
			c := apitest.New(t, built["actions"])
			for _, x := range drf.Actions {
				vs.seen = nil
				check(c, x, bodies[x.Method])
				if !slices.Equal(vs.seen, x.Seen) && !(len(vs.seen) == 0 && len(x.Seen) == 0) {
					t.Errorf("%s %s: SerializerFor saw actions %q, DRF's get_serializer_class %q", x.Method, x.Path, vs.seen, x.Seen)
				}
			}
			c = apitest.New(t, built["served"])
			for _, x := range drf.Lookups {
				check(c, x, "")
			}
			// A HyperlinkedIdentity by uuid names the URL parameter uuid.
			link := serializers.MustNew[routerNote](serializers.Fields("url", "text"),
				serializers.HyperlinkedIdentity{Name: "url", Route: "uuid-detail", LookupField: "uuid"})
			linked := generics.RetrieveAPIView(generics.GenericAPIView[routerNote]{Source: src, Serializer: link, LookupField: "uuid"})
			built["served"].Handle("/linked/{uuid}/", linked)
			check(c, drfExchange{Method: "GET", Path: "/linked/b2/", Status: 200, Body: drf.UUIDLink}, "")
			if u, err := built["lookups"].Routes().Path("uuid-detail", map[string]string{"uuid": "b2"}); err != nil || u != drf.ReverseUUID {
				t.Errorf("reverse uuid-detail = %q, %v; DRF %q", u, err, drf.ReverseUUID)
			}
		})
	}
}

var menuLink = regexp.MustCompile(`<li><a href="([^"]*)">([^<]*)</a></li>`)

// TestExtraActionsMenu: the browsable page of a viewset's route lists the
// extra actions of its kind, list or detail, as DRF's Extra Actions menu.
func TestExtraActionsMenu(t *testing.T) {
	drf := loadRouters(t, framework.DRF318)
	src := notesDB(t)
	vs := &noteViewSet{}
	vs.Source, vs.Serializer = src, noteSerializer
	api := framework.NewAPI(nil, framework.Settings{Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})})
	var r routers.SimpleRouter
	r.Register("notes", vs, "note", noteActions(vs)...)
	lookupViewSets(&r, src)
	r.Mount(api)
	c := apitest.New(t, api)
	for path, want := range drf.ExtraActions {
		resp := c.Do("GET", path, "", "Accept: text/html")
		if resp.Status != 200 && resp.Status != 405 {
			t.Errorf("GET %s = %d", path, resp.Status)
			continue
		}
		var got [][]string
		if i := strings.Index(resp.Body, `id="extra-actions"`); i >= 0 {
			menu := resp.Body[i : i+strings.Index(resp.Body[i:], "</details>")]
			for _, m := range menuLink.FindAllStringSubmatch(menu, -1) {
				got = append(got, []string{m[2], m[1]})
			}
		}
		if len(got) != len(want) || len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("GET %s: Extra Actions %q, DRF %q", path, got, want)
		}
	}
}

// TestDefaultBasename: a generic viewset's routes are named after its
// model's object_name, lower-cased, as DRF's get_default_basename.
func TestDefaultBasename(t *testing.T) {
	drf := loadRouters(t, framework.DRF318)
	vs := &generics.ReadOnlyModelViewSet[routerNote]{}
	vs.Source, vs.Serializer = notesDB(t), noteSerializer
	if got := vs.DefaultBasename(); got != drf.Basename {
		t.Errorf("DefaultBasename = %q, DRF %q", got, drf.Basename)
	}
}

// TestActionOnExistingRoute: an extra action named as a standard action
// is refused at registration, in DRF's words.
func TestActionOnExistingRoute(t *testing.T) {
	drf := loadRouters(t, framework.DRF318)
	vs := &noteViewSet{}
	vs.Source, vs.Serializer = notesDB(t), noteSerializer
	defer func() {
		err, _ := recover().(error)
		if err == nil || !strings.HasSuffix(err.Error(), ": "+drf.ExistingRoute) || !strings.Contains(err.Error(), `"test"`) {
			t.Errorf("Register = %v, want DRF's %q naming the registration", err, drf.ExistingRoute)
		}
	}()
	var r routers.SimpleRouter
	r.Register("test", vs, "test",
		routers.Action{Name: "Retrieve", Handler: vs.Both, Detail: true, HTTPMethods: []string{"POST"}},
		routers.Action{Name: "List", Handler: vs.Both})
}

// TestActionMappingRefused: a method mapped twice, a mapping named as its
// action, and a lookup regex that does not compile are setup errors, the
// first two in the words of DRF's MethodMapper.
func TestActionMappingRefused(t *testing.T) {
	vs := &noteViewSet{}
	vs.Source, vs.Serializer = notesDB(t), noteSerializer
	regex := &generics.ReadOnlyModelViewSet[routerNote]{}
	regex.Source, regex.Serializer, regex.LookupValueRegex = vs.Source, noteSerializer, "[0-9"
	for want, register := range map[string]func(r *routers.SimpleRouter){
		`register "notes": extra action SetPassword: Method 'put' has already been mapped to '.set_password'.`: func(r *routers.SimpleRouter) {
			r.Register("notes", vs, "note", routers.Action{Name: "SetPassword", Handler: vs.SetPassword, Detail: true, HTTPMethods: []string{"PUT"},
				Mapping: []routers.Mapped{{Method: "put", Name: "UnsetPassword", Handler: vs.SetPassword}}})
		},
		`register "notes": extra action SetPassword: Method mapping does not behave like the property decorator.`: func(r *routers.SimpleRouter) {
			r.Register("notes", vs, "note", routers.Action{Name: "SetPassword", Handler: vs.SetPassword, Detail: true,
				Mapping: []routers.Mapped{{Method: "DELETE", Name: "SetPassword", Handler: vs.SetPassword}}})
		},
		`register "regex": lookup value regex: error parsing regexp`: func(r *routers.SimpleRouter) {
			r.Register("regex", regex, "regex")
		},
	} {
		func() {
			defer func() {
				if msg := fmt.Sprint(recover()); !strings.Contains(msg, want) {
					t.Errorf("setup error %q, want %q", msg, want)
				}
			}()
			register(&routers.SimpleRouter{})
		}()
	}
}
