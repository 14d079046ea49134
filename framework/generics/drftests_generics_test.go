package generics_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_generics.py, ported onto the generic views: each
// test method is an item named by its class and method, run at both
// compatibility levels with DRF's assertions, the numbers of queries of
// assertNumQueries included (drfsuite.Open counts them).

// drfBasic is tests/models.py's BasicModel.
type drfBasic struct {
	ID   int64  `db:"id" json:"id" drf:"read_only"`
	Text string `db:"text" json:"text" model:"max_length=100"`
}

func (drfBasic) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "BasicModel", Table: "tests_basicmodel"}
}

// drfComment is test_generics.py's Comment, its serializer excluding
// created.
type drfComment struct {
	ID      int64     `db:"id" json:"id" drf:"read_only"`
	Email   string    `db:"email" json:"email" drf:"email" model:"max_length=254"`
	Content string    `db:"content" json:"content" model:"max_length=200"`
	Created time.Time `db:"created" json:"-" model:"auto_now_add"`
}

func (drfComment) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "Comment", Table: "tests_comment"}
}

// drfClassA is test_generics.py's ClassA, with its many-to-many children.
type drfClassA struct {
	ID       int64   `db:"id" json:"id" drf:"read_only"`
	Name     string  `db:"name" json:"name" model:"max_length=255"`
	Children []int64 `json:"children" model:"many_to_many=tests_classb,related_name=classa,blank"`
}

func (drfClassA) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "ClassA", Table: "tests_classa"}
}

// drfTwoField is test_generics.py's TwoFieldModel.
type drfTwoField struct {
	ID     int64  `db:"id" json:"id" drf:"read_only"`
	FieldA string `db:"field_a" json:"field_a" model:"max_length=100"`
	FieldB string `db:"field_b" json:"field_b" model:"max_length=100"`
}

func (drfTwoField) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "TwoFieldModel", Table: "tests_twofieldmodel"}
}

// drfTextFilter is InclusiveFilterBackend (text "foo") and
// ExclusiveFilterBackend (text "other").
type drfTextFilter string

func (f drfTextFilter) Filter(_ *request.Request, q query.Query) (query.Query, error) {
	return q.Filter("text", string(f)), nil
}

// drfGenerics is one item's database and API: BasicModel's rows (texts),
// RootView at "/", InstanceView at "/{pk}", under settings.
type drfGenerics struct {
	db      *sqlx.DB
	queries func() int
	api     *framework.API
	c       *apitest.Client
	root    generics.GenericAPIView[drfBasic]
	inst    generics.GenericAPIView[drfBasic]
}

func newDRFGenerics(t *testing.T, level framework.Compatibility, texts ...string) *drfGenerics {
	t.Helper()
	d := &drfGenerics{}
	d.db, d.queries = drfsuite.Open(t)
	d.db.MustExec(`CREATE TABLE "tests_basicmodel" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "text" varchar(100) NOT NULL)`)
	for _, text := range texts {
		d.db.MustExec(`INSERT INTO "tests_basicmodel" ("text") VALUES (?)`, text)
	}
	ser := serializers.MustNew[drfBasic]()
	d.root = generics.GenericAPIView[drfBasic]{Source: queryset.MustSQL[drfBasic](d.db, queryset.SQLConfig{}), Serializer: ser}
	// InstanceView's queryset: BasicModel.objects.exclude(text='filtered out').
	d.inst = generics.GenericAPIView[drfBasic]{Serializer: ser, Source: queryset.MustSQL[drfBasic](d.db, queryset.SQLConfig{
		Table: "tests_basicmodel", Columns: []string{"text"},
		Query: `SELECT "id", "text" FROM "tests_basicmodel" WHERE "text" <> 'filtered out'`,
	})}
	d.api = framework.NewAPI(nil, framework.Settings{Compatibility: level,
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})})
	d.c = apitest.New(t, d.api)
	return d
}

// mount serves RootView and InstanceView; the filter backends, if any,
// are both views' (as_view(filter_backends=...)).
func (d *drfGenerics) mount(backends ...framework.FilterBackend) {
	root, inst := d.root, d.inst
	if len(backends) > 0 {
		root.FilterBackends = framework.FilterBackends(backends...)
		inst.FilterBackends = root.FilterBackends
	}
	d.api.Handle("/", generics.ListCreateAPIView(root))
	d.api.Handle("/{pk}", generics.RetrieveUpdateDestroyAPIView(inst))
}

// texts are the rows' texts by id.
func (d *drfGenerics) texts(t *testing.T) map[int64]string {
	t.Helper()
	var rows []drfBasic
	if err := d.db.Select(&rows, `SELECT "id", "text" FROM "tests_basicmodel"`); err != nil {
		t.Fatal(err)
	}
	m := map[int64]string{}
	for _, r := range rows {
		m[r.ID] = r.Text
	}
	return m
}

// do sends a request, a JSON body if any, and checks the number of
// queries it ran when queries >= 0.
func (d *drfGenerics) do(c *drfsuite.Checks, queries int, method, path, body string, header ...string) *apitest.Response {
	if body != "" && len(header) == 0 {
		header = []string{"Content-Type: application/json"}
	}
	d.queries()
	r := d.c.Do(method, path, body, header...)
	if n := d.queries(); queries >= 0 {
		c.Equal(method+" "+path+": queries", n, queries)
	}
	return r
}

const (
	drfRootData     = `[{"id":1,"text":"foo"},{"id":2,"text":"bar"},{"id":3,"text":"baz"}]`
	drfMaxLength100 = `<span class="help-block">Ensure this field has no more than 100 characters.</span>`
)

// drfNotFound is the detail of a 404 of no BasicModel: Django's Http404
// text from DRF 3.15, "Not found." before.
func drfNotFound(level framework.Compatibility) string {
	if level == framework.DRF314 {
		return `{"detail":"Not found."}`
	}
	return `{"detail":"No BasicModel matches the given query."}`
}

// drfGenericsItems are the ported methods.
var drfGenericsItems = []drfsuite.Item{
	{Name: "TestRootView.test_get_root_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount()
		r := d.do(&c, 1, "GET", "/", "")
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, drfRootData)
		return c
	}},
	{Name: "TestRootView.test_head_root_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount()
		c.Equal("status", d.do(&c, 1, "HEAD", "/", "").Status, 200)
		return c
	}},
	{Name: "TestRootView.test_post_root_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount()
		r := d.do(&c, 1, "POST", "/", `{"text":"foobar"}`)
		c.Equal("status", r.Status, 201)
		c.JSON("data", r.Body, `{"id":4,"text":"foobar"}`)
		c.Equal("created", d.texts(t)[4], "foobar")
		return c
	}},
	{Name: "TestRootView.test_put_root_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount()
		r := d.do(&c, 0, "PUT", "/", `{"text":"foobar"}`)
		c.Equal("status", r.Status, 405)
		c.JSON("data", r.Body, `{"detail":"Method \"PUT\" not allowed."}`)
		return c
	}},
	{Name: "TestRootView.test_delete_root_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount()
		r := d.do(&c, 0, "DELETE", "/", "")
		c.Equal("status", r.Status, 405)
		c.JSON("data", r.Body, `{"detail":"Method \"DELETE\" not allowed."}`)
		return c
	}},
	{Name: "TestRootView.test_post_cannot_set_id", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount()
		r := d.do(&c, 1, "POST", "/", `{"id":999,"text":"foobar"}`)
		c.Equal("status", r.Status, 201)
		c.JSON("data", r.Body, `{"id":4,"text":"foobar"}`)
		c.Equal("created", d.texts(t)[4], "foobar")
		return c
	}},
	{Name: "TestRootView.test_post_error_root_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount()
		r := d.do(&c, -1, "POST", "/", "text="+strings.Repeat("foobar", 100),
			"Content-Type: application/x-www-form-urlencoded", "Accept: text/html")
		c.Contains("rendered content", r.Body, drfMaxLength100)
		return c
	}},
	{Name: "TestInstanceView.test_get_instance_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		r := d.do(&c, 1, "GET", "/1", "")
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `{"id":1,"text":"foo"}`)
		return c
	}},
	{Name: "TestInstanceView.test_post_instance_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		r := d.do(&c, 0, "POST", "/1", `{"text":"foobar"}`)
		c.Equal("status", r.Status, 405)
		c.JSON("data", r.Body, `{"detail":"Method \"POST\" not allowed."}`)
		return c
	}},
	{Name: "TestInstanceView.test_put_instance_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		r := d.do(&c, 2, "PUT", "/1", `{"text":"foobar"}`)
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `{"id":1,"text":"foobar"}`)
		c.Equal("updated", d.texts(t)[1], "foobar")
		return c
	}},
	{Name: "TestInstanceView.test_patch_instance_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		r := d.do(&c, 2, "PATCH", "/1", `{"text":"foobar"}`)
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `{"id":1,"text":"foobar"}`)
		c.Equal("updated", d.texts(t)[1], "foobar")
		return c
	}},
	{Name: "TestInstanceView.test_delete_instance_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		r := d.do(&c, 2, "DELETE", "/1", "")
		c.Equal("status", r.Status, 204)
		c.Equal("content", r.Body, "")
		c.Equal("rows", d.texts(t), map[int64]string{2: "bar", 3: "baz", 4: "filtered out"})
		return c
	}},
	{Name: "TestInstanceView.test_get_instance_view_incorrect_arg", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		c.Equal("status", d.do(&c, 0, "GET", "/a", "").Status, 404)
		return c
	}},
	{Name: "TestInstanceView.test_put_cannot_set_id", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		r := d.do(&c, 2, "PUT", "/1", `{"id":999,"text":"foobar"}`)
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `{"id":1,"text":"foobar"}`)
		c.Equal("updated", d.texts(t)[1], "foobar")
		return c
	}},
	{Name: "TestInstanceView.test_put_to_deleted_instance", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		d.db.MustExec(`DELETE FROM "tests_basicmodel" WHERE "id" = 1`)
		c.Equal("status", d.do(&c, 1, "PUT", "/1", `{"text":"foobar"}`).Status, 404)
		return c
	}},
	{Name: "TestInstanceView.test_put_to_filtered_out_instance", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		c.Equal("status", d.do(&c, -1, "PUT", "/4", `{"text":"foo"}`).Status, 404)
		c.Equal("rows", len(d.texts(t)), 4)
		return c
	}},
	{Name: "TestInstanceView.test_patch_cannot_create_an_object", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		c.Equal("status", d.do(&c, 1, "PATCH", "/999", `{"text":"foobar"}`).Status, 404)
		_, exists := d.texts(t)[999]
		c.Equal("exists", exists, false)
		return c
	}},
	{Name: "TestInstanceView.test_put_error_instance_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz", "filtered out")
		d.mount()
		r := d.do(&c, -1, "PUT", "/1", "text="+strings.Repeat("foobar", 100),
			"Content-Type: application/x-www-form-urlencoded", "Accept: text/html")
		c.Contains("rendered content", r.Body, drfMaxLength100)
		return c
	}},
	{Name: "TestOverriddenGetObject.test_overridden_get_object_view", Run: func(t *testing.T, level framework.Compatibility) []string {
		// A view of its own get_object: get_object_or_404(BasicModel, id=pk).
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		ser := d.root.Serializer
		d.api.Handle("/{pk}", framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			obj, err := generics.GetObjectOr404(v, r, d.root.Source, "id", r.PathValue("pk"))
			if err != nil {
				return nil, err
			}
			data, err := ser.Data(obj, &serializers.Context{Request: r})
			if err != nil {
				return nil, err
			}
			return framework.OK(data), nil
		}})
		r := d.do(&c, 1, "GET", "/1", "")
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `{"id":1,"text":"foo"}`)
		return c
	}},
	{Name: "TestCreateModelWithAutoNowAddField.test_create_model_with_auto_now_add_field", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level)
		d.db.MustExec(`CREATE TABLE "tests_comment" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "email" varchar(254) NOT NULL, "content" varchar(200) NOT NULL, "created" datetime NOT NULL)`)
		d.api.Handle("/", generics.ListCreateAPIView(generics.GenericAPIView[drfComment]{
			Source: queryset.MustSQL[drfComment](d.db, queryset.SQLConfig{}), Serializer: serializers.MustNew[drfComment]()}))
		r := d.do(&c, -1, "POST", "/", `{"email":"foobar@example.com","content":"foobar"}`)
		c.Equal("status", r.Status, 201)
		var content string
		if err := d.db.Get(&content, `SELECT "content" FROM "tests_comment" WHERE "id" = 1`); err != nil {
			c = append(c, err.Error())
		}
		c.Equal("created.content", content, "foobar")
		return c
	}},
	{Name: "TestM2MBrowsableAPI.test_m2m_in_browsable_api", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level)
		d.db.MustExec(`CREATE TABLE "tests_classb" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(255) NOT NULL)`)
		d.db.MustExec(`CREATE TABLE "tests_classa" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(255) NOT NULL)`)
		d.db.MustExec(`CREATE TABLE "tests_classa_children" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, ` +
			`"classa_id" bigint NOT NULL REFERENCES "tests_classa" ("id"), "classb_id" bigint NOT NULL REFERENCES "tests_classb" ("id"), UNIQUE ("classa_id", "classb_id"))`)
		d.api.Handle("/", generics.ListCreateAPIView(generics.GenericAPIView[drfClassA]{
			Source: queryset.MustSQL[drfClassA](d.db, queryset.SQLConfig{}), Serializer: serializers.MustNew[drfClassA]()}))
		c.Equal("status", d.do(&c, -1, "GET", "/", "", "Accept: text/html").Status, 200)
		return c
	}},
	{Name: "TestFilterBackendAppliedToViews.test_get_root_view_filters_by_name_with_filter_backend", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount(drfTextFilter("foo"))
		r := d.do(&c, -1, "GET", "/", "")
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `[{"id":1,"text":"foo"}]`)
		return c
	}},
	{Name: "TestFilterBackendAppliedToViews.test_get_root_view_filters_out_all_models_with_exclusive_filter_backend", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount(drfTextFilter("other"))
		r := d.do(&c, -1, "GET", "/", "")
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `[]`)
		return c
	}},
	{Name: "TestFilterBackendAppliedToViews.test_get_instance_view_filters_out_name_with_filter_backend", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount(drfTextFilter("other"))
		r := d.do(&c, -1, "GET", "/1", "")
		c.Equal("status", r.Status, 404)
		c.JSON("data", r.Body, drfNotFound(level))
		return c
	}},
	{Name: "TestFilterBackendAppliedToViews.test_get_instance_view_will_return_single_object_when_filter_does_not_exclude_it", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		d := newDRFGenerics(t, level, "foo", "bar", "baz")
		d.mount(drfTextFilter("foo"))
		r := d.do(&c, -1, "GET", "/1", "")
		c.Equal("status", r.Status, 200)
		c.JSON("data", r.Body, `{"id":1,"text":"foo"}`)
		return c
	}},
	{Name: "TestFilterBackendAppliedToViews.test_dynamic_serializer_form_in_browsable_api", Run: func(t *testing.T, level framework.Compatibility) []string {
		// DynamicSerializerView: the POST serializer has field_b alone.
		var c drfsuite.Checks
		d := newDRFGenerics(t, level)
		d.db.MustExec(`CREATE TABLE "tests_twofieldmodel" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "field_a" varchar(100) NOT NULL, "field_b" varchar(100) NOT NULL)`)
		all, onlyB := serializers.MustNew[drfTwoField](), serializers.MustNew[drfTwoField](serializers.Fields("field_b"))
		d.api.Handle("/", generics.ListCreateAPIView(generics.GenericAPIView[drfTwoField]{
			Source: queryset.MustSQL[drfTwoField](d.db, queryset.SQLConfig{}), Serializer: all,
			SerializerFor: func(_ *framework.View, r *request.Request) *serializers.Serializer[drfTwoField] {
				if r.Method == "POST" {
					return onlyB
				}
				return all
			},
		}))
		r := d.do(&c, -1, "GET", "/", "", "Accept: text/html")
		c.Contains("content", r.Body, "field_b")
		if strings.Contains(r.Body, "field_a") {
			c = append(c, "content has field_a")
		}
		return c
	}},
	{Name: "GetObjectOr404Tests.test_get_object_or_404_with_valid_uuid", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		src := drfUUIDTargets(t)
		obj, err := drfGetObjectOr404(t, level, src, drfUUID.String())
		c.Equal("error", err, nil)
		if obj != nil {
			c.Equal("obj", *obj, drfUUIDTarget{ID: drfUUID, Name: "bar"})
		}
		return c
	}},
	{Name: "GetObjectOr404Tests.test_get_object_or_404_with_invalid_string_for_uuid", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		_, err := drfGetObjectOr404(t, level, drfUUIDTargets(t), "not-a-uuid")
		var status int
		if e, ok := err.(exceptions.StatusCoder); ok {
			status = e.StatusCode()
		}
		c.Equal("Http404", status, 404)
		return c
	}},
	{Name: "TestSerializer.test_serializer_class_not_provided", Run: func(t *testing.T, level framework.Compatibility) (c []string) {
		defer func() {
			msg, _ := recover().(error)
			if msg == nil {
				c = append(c, "a view with no serializer is not refused")
				return
			}
			(*drfsuite.Checks)(&c).Equal("AssertionError", msg.Error(), "'NoSerializerClass' should either include a `serializer_class` attribute, or override the `get_serializer_class()` method.")
		}()
		d := newDRFGenerics(t, level)
		generics.ListAPIView(generics.GenericAPIView[drfBasic]{Source: d.root.Source})
		return nil
	}},
}

// drfUUIDTarget is tests/models.py's UUIDForeignKeyTarget.
type drfUUIDTarget struct {
	ID   uuid.UUID `db:"id" json:"id"`
	Name string    `db:"name" json:"name" model:"max_length=100"`
}

func (drfUUIDTarget) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "UUIDForeignKeyTarget", Table: "tests_uuidforeignkeytarget"}
}

var drfUUID = uuid.MustParse("0e6bb0a2-3c5f-4bd8-b0c9-7a3a1f2d5e01")

func drfUUIDTargets(t *testing.T) queryset.Source[drfUUIDTarget] {
	t.Helper()
	db, _ := drfsuite.Open(t)
	db.MustExec(`CREATE TABLE "tests_uuidforeignkeytarget" ("id" char(32) NOT NULL PRIMARY KEY, "name" varchar(100) NOT NULL)`)
	db.MustExec(`INSERT INTO "tests_uuidforeignkeytarget" ("id", "name") VALUES (?, 'bar')`, strings.ReplaceAll(drfUUID.String(), "-", ""))
	return queryset.MustSQL[drfUUIDTarget](db, queryset.SQLConfig{})
}

// drfGetObjectOr404 calls generics.GetObjectOr404(src, pk=value) from a
// view at level.
func drfGetObjectOr404(t *testing.T, level framework.Compatibility, src queryset.Source[drfUUIDTarget], value string) (*drfUUIDTarget, error) {
	t.Helper()
	var obj *drfUUIDTarget
	var err error
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
	api.Handle("/", framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		obj, err = generics.GetObjectOr404(v, r, src, "id", value)
		return framework.OK(nil), nil
	}})
	apitest.New(t, api).Get("/")
	return obj, err
}

// drfGenericsMethods are the test methods of test_generics.py.
var drfGenericsMethods = strings.Fields(`
	TestRootView.test_get_root_view TestRootView.test_head_root_view TestRootView.test_post_root_view
	TestRootView.test_put_root_view TestRootView.test_delete_root_view TestRootView.test_post_cannot_set_id
	TestRootView.test_post_error_root_view
	TestInstanceView.test_get_instance_view TestInstanceView.test_post_instance_view
	TestInstanceView.test_put_instance_view TestInstanceView.test_patch_instance_view
	TestInstanceView.test_delete_instance_view TestInstanceView.test_get_instance_view_incorrect_arg
	TestInstanceView.test_put_cannot_set_id TestInstanceView.test_put_to_deleted_instance
	TestInstanceView.test_put_to_filtered_out_instance TestInstanceView.test_patch_cannot_create_an_object
	TestInstanceView.test_put_error_instance_view
	TestOverriddenGetObject.test_overridden_get_object_view
	TestCreateModelWithAutoNowAddField.test_create_model_with_auto_now_add_field
	TestM2MBrowsableAPI.test_m2m_in_browsable_api
	TestFilterBackendAppliedToViews.test_get_root_view_filters_by_name_with_filter_backend
	TestFilterBackendAppliedToViews.test_get_root_view_filters_out_all_models_with_exclusive_filter_backend
	TestFilterBackendAppliedToViews.test_get_instance_view_filters_out_name_with_filter_backend
	TestFilterBackendAppliedToViews.test_get_instance_view_will_return_single_object_when_filter_does_not_exclude_it
	TestFilterBackendAppliedToViews.test_dynamic_serializer_form_in_browsable_api
	TestGuardedQueryset.test_guarded_queryset
	ApiViewsTests.test_create_api_view_post ApiViewsTests.test_destroy_api_view_delete
	ApiViewsTests.test_update_api_view_partial_update ApiViewsTests.test_retrieve_update_api_view_get
	ApiViewsTests.test_retrieve_update_api_view_put ApiViewsTests.test_retrieve_update_api_view_patch
	ApiViewsTests.test_retrieve_destroy_api_view_get ApiViewsTests.test_retrieve_destroy_api_view_delete
	GetObjectOr404Tests.test_get_object_or_404_with_valid_uuid
	GetObjectOr404Tests.test_get_object_or_404_with_invalid_string_for_uuid
	TestSerializer.test_serializer_class_not_provided TestSerializer.test_given_context_not_overridden
	TestTyping.test_genericview_is_subscriptable TestTyping.test_listview_is_subscriptable
	TestTyping.test_instanceview_is_subscriptable`)

// apiViewsTests is why ApiViewsTests' methods are not portable.
const apiViewsTests = "Python's API: calls a view's post() (get, put, patch, delete) with mock arguments and checks the call of its create() (retrieve, update, ...) method; a concrete view's handlers are the GenericAPIView's methods, set once"

// drfExclude is why InstanceView's writes differ.
const drfExclude = "a Source has no exclude(): InstanceView's queryset is a SELECT (SQLConfig.Query), whose row is read again after a write, a third query (docs/drf-differences.md, DRF's generic view tests)"

// TestDRFGenerics runs DRF 3.18's tests/test_generics.py.
func TestDRFGenerics(t *testing.T) {
	drfsuite.Suite{
		File:    "tests/test_generics.py",
		Methods: drfGenericsMethods,
		Items:   drfGenericsItems,
		Own314:  []string{"TestFilterBackendAppliedToViews.test_get_instance_view_filters_out_name_with_filter_backend"},
		Differ: map[string]string{
			"TestInstanceView.test_put_instance_view":           drfExclude,
			"TestInstanceView.test_patch_instance_view":         drfExclude,
			"TestInstanceView.test_put_cannot_set_id":           drfExclude,
			"TestSerializer.test_serializer_class_not_provided": "refused when the view is made, not when get_serializer_class() is called, and in the framework's words, naming the view and Serializer or SerializerFor",
		},
		NotPortable: map[string]string{
			"TestGuardedQueryset.test_guarded_queryset":           "Python's API: reading the class attribute queryset raises RuntimeError; a Source is a value, not a cached evaluation",
			"ApiViewsTests.test_create_api_view_post":             apiViewsTests,
			"ApiViewsTests.test_destroy_api_view_delete":          apiViewsTests,
			"ApiViewsTests.test_update_api_view_partial_update":   apiViewsTests,
			"ApiViewsTests.test_retrieve_update_api_view_get":     apiViewsTests,
			"ApiViewsTests.test_retrieve_update_api_view_put":     apiViewsTests,
			"ApiViewsTests.test_retrieve_update_api_view_patch":   apiViewsTests,
			"ApiViewsTests.test_retrieve_destroy_api_view_get":    apiViewsTests,
			"ApiViewsTests.test_retrieve_destroy_api_view_delete": apiViewsTests,
			"TestSerializer.test_given_context_not_overridden":    "Python's API: the identity of a context object passed to get_serializer(context=...)",
			"TestTyping.test_genericview_is_subscriptable":        "Python's typing: GenericAPIView[\"foo\"] is the class itself; Go's generics are types",
			"TestTyping.test_listview_is_subscriptable":           "Python's typing: ListAPIView[\"foo\"] is the class itself",
			"TestTyping.test_instanceview_is_subscriptable":       "Python's typing: RetrieveAPIView[\"foo\"] is the class itself",
		},
	}.Run(t)
}
