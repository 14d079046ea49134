package generics_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
	"github.com/go-drf/drf/internal/testservers"
)

// Outing has a field of each of Django's DateField, TimeField,
// DurationField and BinaryField, nullable forms among them.
type Outing struct {
	ID    int64             `db:"id" json:"id" drf:"read_only"`
	Day   models.Date       `db:"day" json:"day" drf:"required"`
	At    *models.TimeOfDay `db:"at" json:"at"`
	Takes time.Duration     `db:"takes" json:"takes" drf:"required"`
	Pause *time.Duration    `db:"pause" json:"pause"`
	Photo []byte            `db:"photo" json:"photo" drf:"max_length=4"`
}

// outingTables are the table as Django 3.2's migrate creates it for the
// model (DateField, TimeField(null=True), DurationField,
// DurationField(null=True), BinaryField(max_length=4, editable=True)).
var outingTables = map[store.Dialect]string{
	store.SQLite: `CREATE TABLE "outing" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "day" date NOT NULL,
		"at" time NULL, "takes" bigint NOT NULL, "pause" bigint NULL, "photo" BLOB NOT NULL)`,
	store.PostgreSQL: `CREATE TABLE "outing" ("id" serial NOT NULL PRIMARY KEY, "day" date NOT NULL,
		"at" time NULL, "takes" interval NOT NULL, "pause" interval NULL, "photo" bytea NOT NULL)`,
}

var outingSerializer = serializers.MustNew[Outing]()

// outings serves /outings/ (list, create; filters and ordering),
// /outings/{pk}/ and /outings/cursor/ (paged by a cursor on takes) over
// src, a source over the outing table, or in memory (read-only).
func outings(t *testing.T, db *sqlx.DB, src queryset.Source[Outing]) *apitest.Client {
	_, writes := src.(*queryset.SQLSource[Outing])
	t.Helper()
	api := framework.NewAPI(db, framework.Settings{
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{}),
	})
	fs := filters.FilterSet{}
	fs.Filters = append(fs.Filters, filters.Lookups("day", filters.Date, query.Exact, query.GTE)...)
	fs.Filters = append(fs.Filters, filters.Lookups("at", filters.Text, query.LT, query.IsNull)...)
	fs.Filters = append(fs.Filters, filters.Lookups("takes", filters.Text, query.Exact, query.GT)...)
	fs.Filters = append(fs.Filters, filters.Lookups("photo", filters.Text, query.Exact)...)
	list := generics.GenericAPIView[Outing]{Source: src, Serializer: outingSerializer,
		FilterBackends: framework.FilterBackends(fs, filters.OrderingFilter{Fields: []string{"day", "at", "takes", "photo"}})}
	list.Name = "Outings"
	if writes {
		api.Handle("/outings/", generics.ListCreateAPIView(list))
	} else {
		api.Handle("/outings/", generics.ListAPIView(list))
	}
	detail := generics.GenericAPIView[Outing]{Source: src, Serializer: outingSerializer}
	detail.Name = "Outing"
	if writes {
		api.Handle("/outings/{pk}/", generics.RetrieveUpdateDestroyAPIView(detail))
	} else {
		api.Handle("/outings/{pk}/", generics.RetrieveAPIView(detail))
	}
	paged := generics.GenericAPIView[Outing]{Source: src, Serializer: outingSerializer}
	paged.Pagination = &pagination.CursorPagination{PageSize: 1, Ordering: []string{"-takes"}}
	paged.Name = "Outings by time taken"
	api.Handle("/outings/cursor/", generics.ListAPIView(paged))
	t.Cleanup(func() {
		doc, err := (&schemas.Generator{API: api}).Document("")
		if err != nil {
			t.Fatal(err)
		}
		s, ok := doc.Components.Schemas.Get("Outing")
		if !ok {
			t.Fatal("no Outing component")
		}
		// As DRF's AutoSchema maps them: a DateField is a string of format
		// date, the others strings.
		got, _ := json.Marshal(s)
		if want := `{"type":"object","properties":{"id":{"type":"integer","readOnly":true},"day":{"type":"string","format":"date"},` +
			`"at":{"type":["string","null"]},"takes":{"type":"string"},"pause":{"type":["string","null"]},"photo":{"type":"string"}},` +
			`"required":["day","takes"]}`; string(got) != want {
			t.Errorf("Outing schema =\n%s\nwant\n%s", got, want)
		}
	})
	return apitest.New(t, api)
}

func TestDateTimeDurationBinaryRoundTrip(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		if _, err := db.Exec(outingTables[store.DialectOf(db)]); err != nil {
			t.Fatal(err)
		}
		src := queryset.MustSQL[Outing](db, queryset.SQLConfig{Table: "outing", Ordering: []query.Order{{Field: "id"}}})
		c := outings(t, db, src)
		writeOutings(t, c)
		readOutings(t, c)
		describeAndDelete(t, c)

		// The rows hold what Django's fields store: on SQLite text dates
		// and times and microseconds, on PostgreSQL its own types.
		var day, at, takes, pause string
		var photo []byte
		if err := db.QueryRow(`SELECT CAST("day" AS text), CAST("at" AS text), CAST("takes" AS text), CAST("pause" AS text), "photo" FROM "outing" WHERE "id" = 2`).
			Scan(&day, &at, &takes, &pause, &photo); err != nil {
			t.Fatal(err)
		}
		want := map[store.Dialect][4]string{
			store.SQLite:     {"2024-01-03", "09:05:30.250000", "88200000000", "-1000000"},
			store.PostgreSQL: {"2024-01-03", "09:05:30.25", "1 day 00:30:00", "-1 days +23:59:59"},
		}
		if got := [4]string{day, at, takes, pause}; got != want[store.DialectOf(db)] || string(photo) != "\x00\xff" {
			t.Errorf("row = %q, %q; want %q", got, photo, want[store.DialectOf(db)])
		}
	})
}

// TestDateTimeDurationBinaryInMemory reads, filters, orders and pages
// the outings that writeOutings leaves, from a slice.
func TestDateTimeDurationBinaryInMemory(t *testing.T) {
	d := func(s string) time.Duration { d, _ := structs.ParseDuration(s); return d }
	src := queryset.MustSlice([]Outing{
		{ID: 1, Day: models.Date{Year: 2024, Month: 1, Day: 31}, At: &models.TimeOfDay{Hour: 13, Minute: 45}, Takes: d("3 02:00:00"), Photo: []byte("hi")},
		{ID: 2, Day: models.Date{Year: 2024, Month: 1, Day: 3}, At: &models.TimeOfDay{Hour: 9, Minute: 5, Second: 30, Microsecond: 250000},
			Takes: d("1 00:30:00"), Pause: new(-time.Second), Photo: []byte{0, 0xff}},
		{ID: 3, Day: models.Date{Year: 2023, Month: 12, Day: 25}, Takes: 1500 * time.Millisecond, Pause: new(90 * time.Second), Photo: []byte{}},
	}, query.Order{Field: "id"})
	readOutings(t, outings(t, nil, src))
}

// The outings as writeOutings leaves them.
const (
	first  = `{"id":1,"day":"2024-01-31","at":"13:45:00","takes":"3 02:00:00","pause":null,"photo":"aGk="}`
	second = `{"id":2,"day":"2024-01-03","at":"09:05:30.250000","takes":"1 00:30:00","pause":"-1 23:59:59","photo":"AP8="}`
	third  = `{"id":3,"day":"2023-12-25","at":null,"takes":"00:00:01.500000","pause":"00:01:30","photo":""}`
)

var js = []string{"Content-Type: application/json"}

func expect(t *testing.T, r *apitest.Response, status int, body string) {
	t.Helper()
	if r.Status != status || r.Body != body {
		t.Errorf("%d %s\nwant %d %s", r.Status, r.Body, status, body)
	}
}

// writeOutings creates and updates outings through c, and pins DRF
// 3.14's renderings and messages.
func writeOutings(t *testing.T, c *apitest.Client) {
	t.Helper()

	// DRF reads Django's formats and renders its own: a date with
	// one-digit parts, a time without seconds or with a zone (dropped),
	// durations in each of parse_duration's formats, a number as seconds;
	// bytes are base64.
	expect(t, c.Post("/outings/", `{"day":"2024-01-31","at":"13:45+01:00","takes":"3 days 02:00:00","pause":null,"photo":"aGk="}`, js...), 201, first)
	expect(t, c.Post("/outings/", `{"day":"2024-1-3","at":"9:05:30,25","takes":"P1DT30M","pause":"-00:00:01","photo":"AP8="}`, js...), 201, second)
	expect(t, c.Post("/outings/", `{"day":"2023-12-25","takes":1.5,"pause":"1:30","photo":""}`, js...), 201, third)

	// What DRF refuses, in its words; Django's MaxLengthValidator counts
	// the bytes.
	expect(t, c.Post("/outings/", `{"day":"2024-01-31T10:00:00","at":"25:00","takes":"x","photo":"aGVsbG8="}`, js...), 400,
		`{"day":["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."],`+
			`"at":["Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]]."],`+
			`"takes":["Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu]."],`+
			`"photo":["Ensure this value has at most 4 characters (it has 5)."]}`)
	expect(t, c.Post("/outings/", `{"day":"2024-02-30","takes":true,"photo":5}`, js...), 400,
		`{"day":["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."],`+
			`"takes":["Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu]."],"photo":["Invalid value."]}`)
	expect(t, c.Post("/outings/", `{"day":20240131,"takes":null,"photo":"not base64!"}`, js...), 400,
		`{"day":["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."],"takes":["This field may not be null."],"photo":["Invalid value."]}`)
	expect(t, c.Post("/outings/", `{}`, js...), 400, `{"day":["This field is required."],"takes":["This field is required."]}`)

	expect(t, c.Get("/outings/2/"), 200, second)
	changed := `{"id":2,"day":"2024-02-29","at":null,"takes":"1 00:30:00","pause":"2 00:00:00.000001","photo":"AP8="}`
	expect(t, c.Do("PATCH", "/outings/2/", `{"day":"2024-02-29","at":null,"pause":"P2DT0.000001S"}`, js...), 200, changed)
	expect(t, c.Get("/outings/2/"), 200, changed)
	expect(t, c.Do("PATCH", "/outings/2/", `{"day":"2024-01-03","at":"09:05:30.25","pause":"-1 day, 23:59:59"}`, js...), 200, second)
}

// readOutings filters, orders and pages the outings, and reads their
// OPTIONS and browsable forms.
func readOutings(t *testing.T, c *apitest.Client) {
	t.Helper()

	// Filters read their values as Django's fields do.
	for path, want := range map[string]string{
		"/outings/?day=2024-01-31":                "[" + first + "]",
		"/outings/?day__gte=2024-01-03":           "[" + first + "," + second + "]",
		"/outings/?at__lt=10:00":                  "[" + second + "]",
		"/outings/?at__isnull=true":               "[" + third + "]",
		"/outings/?takes=3 days, 2:00:00":         "[" + first + "]",
		"/outings/?takes=P3DT2H":                  "[" + first + "]",
		"/outings/?takes__gt=2":                   "[" + first + "," + second + "]",
		"/outings/?takes__gt=1 00:30:00":          "[" + first + "]",
		"/outings/?photo=AP8=":                    "[" + second + "]",
		"/outings/?ordering=day":                  "[" + third + "," + second + "," + first + "]",
		"/outings/?ordering=-takes":               "[" + first + "," + second + "," + third + "]",
		"/outings/?ordering=-at&at__isnull=false": "[" + first + "," + second + "]",
		"/outings/?ordering=photo":                "[" + third + "," + second + "," + first + "]",
	} {
		expect(t, c.Get((&url.URL{Path: "/outings/", RawQuery: url.Values(parseQuery(path)).Encode()}).String()), 200, want)
	}
	expect(t, c.Get("/outings/?day=2024-02-30"), 400, `{"day":["Enter a valid date."]}`)

	// A cursor holds a duration's position and reads it back.
	var got []string
	for next := "/outings/cursor/"; next != ""; {
		r := c.Get(next)
		var page struct {
			Next    *string
			Results []json.RawMessage
		}
		if err := json.Unmarshal([]byte(r.Body), &page); err != nil || r.Status != 200 {
			t.Fatalf("%s = %d %s", next, r.Status, r.Body)
		}
		for _, item := range page.Results {
			got = append(got, string(item))
		}
		next = ""
		if page.Next != nil {
			next = strings.TrimPrefix(*page.Next, "http://testserver")
		}
	}
	if want := []string{first, second, third}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("cursor pages = %s\nwant %s", got, want)
	}

}

// describeAndDelete reads the OPTIONS and browsable forms of the
// outings, updates one from a form and deletes it.
func describeAndDelete(t *testing.T, c *apitest.Client) {
	t.Helper()
	// OPTIONS names the fields as DRF's SimpleMetadata does: DRF 3.18's
	// "duration" (3.14's "field"), a BinaryField's ModelField "field"
	// without its max_length.
	r := c.Do("OPTIONS", "/outings/", "")
	var meta struct{ Actions map[string]json.RawMessage }
	if err := decode(r.Body, &meta); err != nil || r.Status != 200 {
		t.Fatalf("OPTIONS = %d %s", r.Status, r.Body)
	}
	if got := string(meta.Actions["POST"]); got != `{"id":{"type":"integer","required":false,"read_only":true,"label":"ID"},`+
		`"day":{"type":"date","required":true,"read_only":false,"label":"Day"},`+
		`"at":{"type":"time","required":false,"read_only":false,"label":"At"},`+
		`"takes":{"type":"duration","required":true,"read_only":false,"label":"Takes"},`+
		`"pause":{"type":"duration","required":false,"read_only":false,"label":"Pause"},`+
		`"photo":{"type":"field","required":false,"read_only":false,"label":"Photo"}}` {
		t.Errorf("OPTIONS actions = %s", got)
	}

	// The browsable forms: DRF's date and time inputs.
	page := c.Get("/outings/1/", "Accept: text/html").Body
	for _, w := range []string{`<input type="date" id="put-day" name="day" value="2024-01-31">`,
		`<input type="time" id="put-at" name="at" value="13:45:00" step="1">`,
		`<input type="text" id="put-takes" name="takes" value="3 02:00:00">`} {
		if !strings.Contains(page, w) {
			t.Errorf("detail page lacks %s", w)
		}
	}
	// A form's text reads as JSON's strings do.
	form := []string{"Content-Type: application/x-www-form-urlencoded"}
	expect(t, c.Do("PATCH", "/outings/3/", url.Values{"day": {"2023-12-24"}, "at": {"07:00"}, "takes": {"2"}}.Encode(), form...), 200,
		`{"id":3,"day":"2023-12-24","at":"07:00:00","takes":"00:00:02","pause":"00:01:30","photo":""}`)

	expect(t, c.Do("DELETE", "/outings/3/", ""), 204, "")
	expect(t, c.Get("/outings/3/"), 404, `{"detail":"No Outing matches the given query."}`)
}

// parseQuery reads the query of path, whose values may hold spaces.
func parseQuery(path string) map[string][]string {
	_, q, _ := strings.Cut(path, "?")
	params := map[string][]string{}
	for _, kv := range strings.Split(q, "&") {
		k, v, _ := strings.Cut(kv, "=")
		params[k] = []string{v}
	}
	return params
}
