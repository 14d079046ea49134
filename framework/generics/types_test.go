package generics_test

import (
	"database/sql"
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// Gadget has a field of each kind that database/sql's contracts bring: a
// UUID, a decimal, nullable strings (an sql.NullString and a *string), a
// nullable time and a JSON column.
type Gadget struct {
	ID    int64           `db:"id" json:"id" drf:"read_only"`
	Code  uuid.UUID       `db:"code" json:"code" drf:"required"`
	Price decimal.Decimal `db:"price" json:"price" drf:"required,max_digits=8,decimal_places=2"`
	Note  sql.NullString  `db:"note" json:"note" drf:"max_length=100"`
	Nick  *string         `db:"nick" json:"nick" drf:"max_length=50"`
	Seen  sql.NullTime    `db:"seen" json:"seen"`
	Data  json.RawMessage `db:"data" json:"data"`
}

// gadgetTables are the table as Django 3.2's migrate creates it for the
// model (UUIDField, DecimalField(max_digits=8, decimal_places=2),
// CharField(null=True) twice, DateTimeField(null=True), JSONField).
var gadgetTables = map[store.Dialect]string{
	store.SQLite: `CREATE TABLE "gadget" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "code" char(32) NOT NULL UNIQUE,
		"price" decimal NOT NULL, "note" varchar(100) NULL, "nick" varchar(50) NULL, "seen" datetime NULL,
		"data" text NOT NULL CHECK ((JSON_VALID("data") OR "data" IS NULL)))`,
	store.PostgreSQL: `CREATE TABLE "gadget" ("id" serial NOT NULL PRIMARY KEY, "code" uuid NOT NULL UNIQUE,
		"price" numeric(8, 2) NOT NULL, "note" varchar(100) NULL, "nick" varchar(50) NULL,
		"seen" timestamp with time zone NULL, "data" jsonb NOT NULL)`,
}

var gadgetSerializer = serializers.MustNew[Gadget]()

// gadgets serves /gadgets/ (list, create; ordering and search) and
// /gadgets/{code}/ (looked up by the UUID) over db's gadget table.
func gadgets(t *testing.T, db *sqlx.DB) *apitest.Client {
	t.Helper()
	if _, err := db.Exec(gadgetTables[store.DialectOf(db)]); err != nil {
		t.Fatal(err)
	}
	src := queryset.MustSQL[Gadget](db, queryset.SQLConfig{Table: "gadget", Ordering: []query.Order{{Field: "id"}}})
	api := framework.NewAPI(db, framework.Settings{
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{}),
	})
	list := generics.GenericAPIView[Gadget]{Source: src, Serializer: gadgetSerializer,
		FilterBackends: framework.FilterBackends(filters.OrderingFilter{Fields: []string{"price", "code", "seen"}}, filters.SearchFilter{Fields: []string{"note", "nick"}})}
	list.Name = "Gadgets"
	api.Handle("/gadgets/", generics.ListCreateAPIView(list))
	detail := generics.GenericAPIView[Gadget]{Source: src, Serializer: gadgetSerializer, LookupField: "code", LookupURLKwarg: "code"}
	detail.Name = "Gadget"
	api.Handle("/gadgets/{code}/", generics.RetrieveUpdateDestroyAPIView(detail))
	t.Cleanup(func() {
		doc, err := (&schemas.Generator{API: api}).Document("")
		if err != nil {
			t.Fatal(err)
		}
		checkGadgetSchema(t, doc)
	})
	return apitest.New(t, api)
}

const (
	code1 = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	code2 = "0e4d2e5a-1b8c-4d3e-9f3a-5c6d7e8f9a0b"
)

func TestCustomTypesRoundTrip(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		c := gadgets(t, db)
		expect := func(r *apitest.Response, status int, body string) {
			t.Helper()
			if r.Status != status || r.Body != body {
				t.Errorf("%d %s\nwant %d %s", r.Status, r.Body, status, body)
			}
		}
		js := []string{"Content-Type: application/json"}

		// Created through the view: the UUID in capitals is the same UUID,
		// the decimal a string, the JSON any value.
		expect(c.Post("/gadgets/", `{"code":"`+strings.ToUpper(code1)+`","price":"12.50","note":"first gadget","nick":null,`+
			`"seen":"2024-01-05T10:00:00+01:00","data":{"b":[1,2.5,"x"],"a":{"c":null}}}`, js...),
			201, `{"id":1,"code":"`+code1+`","price":"12.50","note":"first gadget","nick":null,"seen":"2024-01-05T09:00:00Z","data":{"a":{"c":null},"b":[1,2.5,"x"]}}`)
		expect(c.Post("/gadgets/", `{"code":"`+code2+`","price":100,"nick":"second","data":[]}`, js...),
			201, `{"id":2,"code":"`+code2+`","price":"100.00","note":null,"nick":"second","seen":null,"data":[]}`)
		// Values the types refuse, in DRF's words.
		expect(c.Post("/gadgets/", `{"code":"not-a-uuid","price":"abc","data":null,"note":"`+strings.Repeat("n", 101)+`"}`, js...),
			400, `{"code":["Must be a valid UUID."],"price":["A valid number is required."],"note":["Ensure this field has no more than 100 characters."],"data":["This field may not be null."]}`)
		// DRF's UUIDField reads an integer as uuid.UUID(int=...).
		expect(c.Post("/gadgets/", `{"code":12,"price":true}`, js...), 400, `{"price":["A valid number is required."]}`)
		expect(c.Post("/gadgets/", `{"code":-12,"price":1}`, js...), 400, `{"code":["Must be a valid UUID."]}`)
		// The decimal's precision, in DRF's order and words.
		for price, msg := range map[string]string{
			`"123456789"`: "Ensure that there are no more than 8 digits in total.",
			`1.005`:       "Ensure that there are no more than 2 decimal places.",
			`"1234567.1"`: "Ensure that there are no more than 6 digits before the decimal point.",
			`"NaN"`:       "A valid number is required.",
			`"1e999"`:     "Ensure that there are no more than 8 digits in total.",
		} {
			expect(c.Post("/gadgets/", `{"code":"`+code2+`","price":`+price+`,"data":{}}`, js...), 400, `{"price":["`+msg+`"]}`)
		}
		// Read back by the UUID, in any spelling Python's uuid.UUID reads.
		first := `{"id":1,"code":"` + code1 + `","price":"12.50","note":"first gadget","nick":null,"seen":"2024-01-05T09:00:00Z","data":{"a":{"c":null},"b":[1,2.5,"x"]}}`
		expect(c.Get("/gadgets/"+code1+"/"), 200, first)
		expect(c.Get("/gadgets/"+strings.ToUpper(strings.ReplaceAll(code1, "-", ""))+"/"), 200, first)
		expect(c.Get("/gadgets/not-a-uuid/"), 404, `{"detail":"Not found."}`)
		expect(c.Get("/gadgets/00000000-0000-0000-0000-000000000000/"), 404, `{"detail":"No Gadget matches the given query."}`)

		// Updated: nulls in, values out.
		expect(c.Do("PATCH", "/gadgets/"+code1+"/", `{"price":7.25,"note":null,"nick":"n","seen":null,"data":[1,"<&>"]}`, js...),
			200, `{"id":1,"code":"`+code1+`","price":"7.25","note":null,"nick":"n","seen":null,"data":[1,"<&>"]}`)
		expect(c.Do("PATCH", "/gadgets/"+code1+"/", `{"note":"again","data":"text"}`, js...),
			200, `{"id":1,"code":"`+code1+`","price":"7.25","note":"again","nick":"n","seen":null,"data":"text"}`)

		// Listed, ordered by the decimal as a number (7.25 before 100),
		// by the UUID, and searched.
		second := `{"id":2,"code":"` + code2 + `","price":"100.00","note":null,"nick":"second","seen":null,"data":[]}`
		first = `{"id":1,"code":"` + code1 + `","price":"7.25","note":"again","nick":"n","seen":null,"data":"text"}`
		expect(c.Get("/gadgets/"), 200, "["+first+","+second+"]")
		expect(c.Get("/gadgets/?ordering=-price"), 200, "["+second+","+first+"]")
		expect(c.Get("/gadgets/?ordering=price"), 200, "["+first+","+second+"]")
		expect(c.Get("/gadgets/?ordering=code"), 200, "["+second+","+first+"]")
		expect(c.Get("/gadgets/?search=AGAIN"), 200, "["+first+"]")
		expect(c.Get("/gadgets/?search=secon"), 200, "["+second+"]")

		// A form's text is the JSON of a JSON field.
		form := []string{"Content-Type: application/x-www-form-urlencoded"}
		expect(c.Post("/gadgets/", url.Values{"code": {"11111111-2222-3333-4444-555555555555"}, "price": {"0.5"}, "data": {`{"k": "v"}`}}.Encode(), form...),
			201, `{"id":3,"code":"11111111-2222-3333-4444-555555555555","price":"0.50","note":null,"nick":null,"seen":null,"data":{"k":"v"}}`)
		expect(c.Post("/gadgets/", url.Values{"code": {"11111111-2222-3333-4444-555555555556"}, "price": {"1"}, "data": {`{"k": `}}.Encode(), form...),
			400, `{"data":["Value must be valid JSON."]}`)

		// The rows hold what Django's fields would: on SQLite the UUID as
		// 32 hex digits in its char(32).
		var stored, price, data string
		if err := db.QueryRow(`SELECT CAST("code" AS text), CAST("price" AS text), CAST("data" AS text) FROM "gadget" WHERE "id" = 2`).Scan(&stored, &price, &data); err != nil {
			t.Fatal(err)
		}
		want := map[store.Dialect][3]string{store.SQLite: {strings.ReplaceAll(code2, "-", ""), "100", "[]"}, store.PostgreSQL: {code2, "100.00", "[]"}}
		if got := [3]string{stored, price, data}; got != want[store.DialectOf(db)] {
			t.Errorf("row = %q, want %q", got, want[store.DialectOf(db)])
		}

		expect(c.Do("DELETE", "/gadgets/"+code2+"/", ""), 204, "")
		expect(c.Get("/gadgets/"+code2+"/"), 404, `{"detail":"No Gadget matches the given query."}`)

		// OPTIONS names the fields as DRF's SimpleMetadata does (a
		// UUIDField is a "string", a JSONField a "field").
		r := c.Do("OPTIONS", "/gadgets/", "")
		var meta struct{ Actions map[string]json.RawMessage }
		if err := decode(r.Body, &meta); err != nil || r.Status != 200 {
			t.Fatalf("OPTIONS = %d %s", r.Status, r.Body)
		}
		if got := string(meta.Actions["POST"]); got != `{"id":{"type":"integer","required":false,"read_only":true,"label":"ID"},`+
			`"code":{"type":"string","required":true,"read_only":false,"label":"Code"},`+
			`"price":{"type":"decimal","required":true,"read_only":false,"label":"Price","max_digits":8,"decimal_places":2},`+
			`"note":{"type":"string","required":false,"read_only":false,"label":"Note","max_length":100},`+
			`"nick":{"type":"string","required":false,"read_only":false,"label":"Nick","max_length":50},`+
			`"seen":{"type":"datetime","required":false,"read_only":false,"label":"Seen"},`+
			`"data":{"type":"field","required":false,"read_only":false,"label":"Data"}}` {
			t.Errorf("OPTIONS actions = %s", got)
		}

		// The browsable page's forms show every writable field: text
		// inputs, a textarea for the JSON, the item's values on its page.
		html := []string{"Accept: text/html"}
		page := c.Get("/gadgets/", html...).Body
		for _, w := range []string{`<input type="text" id="post-code" name="code" value="">`, `<input type="text" id="post-price" name="price" value="">`,
			`<input type="text" id="post-note" name="note" value="" maxlength="100">`, `<input type="datetime-local" id="post-seen" name="seen" value="" step="1">`,
			`<textarea id="post-data" name="data" rows="5"></textarea>`,
			// The raw data form starts from each field's initial value, as
			// DRF's: "" for a CharField, null for a UUID, decimal or JSON.
			`<textarea id="post-raw-content" name="content" rows="10">{
    &#34;code&#34;: null,
    &#34;price&#34;: null,
    &#34;note&#34;: &#34;&#34;,
    &#34;nick&#34;: &#34;&#34;,
    &#34;seen&#34;: null,
    &#34;data&#34;: null
}</textarea>`} {
			if !strings.Contains(page, w) {
				t.Errorf("list page lacks %s", w)
			}
		}
		page = c.Get("/gadgets/"+code1+"/", html...).Body
		for _, w := range []string{`<input type="text" id="put-code" name="code" value="` + code1 + `">`,
			`<input type="text" id="put-price" name="price" value="7.25">`, `<input type="text" id="put-note" name="note" value="again" maxlength="100">`,
			`<textarea id="put-data" name="data" rows="5">&#34;text&#34;</textarea>`} {
			if !strings.Contains(page, w) {
				t.Errorf("detail page lacks %s", w)
			}
		}
	})
}

func decode(body string, v any) error { return json.Unmarshal([]byte(body), v) }

// checkGadgetSchema pins the OpenAPI component of Gadget and its lookup.
func checkGadgetSchema(t *testing.T, doc *schemas.Document) {
	t.Helper()
	s, ok := doc.Components.Schemas.Get("Gadget")
	if !ok {
		t.Fatal("no Gadget component")
	}
	got, _ := json.Marshal(s)
	if want := `{"type":"object","properties":{"id":{"type":"integer","readOnly":true},"code":{"type":"string","format":"uuid"},` +
		`"price":{"type":"string","format":"decimal","multipleOf":0.01,"maximum":1000000,"minimum":-1000000},"note":{"type":["string","null"],"maxLength":100},` +
		`"nick":{"type":["string","null"],"maxLength":50},"seen":{"type":["string","null"],"format":"date-time"},"data":{"type":"object"}},` +
		`"required":["code","price"]}`; string(got) != want {
		t.Errorf("Gadget schema =\n%s\nwant\n%s", got, want)
	}
}
