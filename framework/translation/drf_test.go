package translation

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// errorRequest is a request of testdata/drf_errors.py.
type errorRequest struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Body    string            `json:"body,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// errorAnswer is what a client sees of an error answer in its language.
type errorAnswer struct {
	Status          int    `json:"status"`
	Body            string `json:"body"`
	ContentLanguage string `json:"content_language"`
	Vary            string `json:"vary"`
}

// seconds are the throttle's wait in a detail.
var seconds = regexp.MustCompile(`[0-9]+`)

const alice = "Basic YWxpY2U6YWxpY2UtcGFzcw==" // alice:alice-pass

// errorCases are the error answers of the sample's contract: not found,
// method not allowed, not authenticated, wrong credentials, permission
// denied, throttled with its wait, malformed JSON, and validation
// errors (required, blank, max_length, not an integer, over the maximum),
// each asked for in one language; throttle are the requests that use up
// the throttle first.
func errorCases() (throttle, cases []errorRequest) {
	for range 3 {
		throttle = append(throttle, errorRequest{Method: "POST", Path: "/api-token-auth-throttled/", Body: `{}`})
	}
	base := []errorRequest{
		{Method: "GET", Path: "/books/99999/"},
		{Method: "PROPFIND", Path: "/pages/nested-links/"},
		{Method: "GET", Path: "/auth/admin-only/"},
		{Method: "GET", Path: "/auth/admin-only/", Headers: map[string]string{"Authorization": "Basic YWxpY2U6d3Jvbmc="}},
		{Method: "GET", Path: "/auth/admin-only/", Headers: map[string]string{"Authorization": alice}},
		{Method: "POST", Path: "/books/", Body: `{}`},
		{Method: "POST", Path: "/books/", Body: `{"title": 1,`, Headers: map[string]string{"Authorization": alice}},
		{Method: "POST", Path: "/books/", Body: `{}`, Headers: map[string]string{"Authorization": alice}},
		{Method: "POST", Path: "/books/", Body: `{"title": "", "author": "` + strings.Repeat("x", 201) + `", "rating": "x"}`,
			Headers: map[string]string{"Authorization": alice}},
		{Method: "POST", Path: "/books/", Body: `{"title": "t", "author": "a", "rating": 9}`, Headers: map[string]string{"Authorization": alice}},
		{Method: "PUT", Path: "/books/2/", Body: `{"title": "t", "author": "a", "rating": 0}`, Headers: map[string]string{"Authorization": alice}},
	}
	langs := []string{"", "de", "fr", "es", "pt-BR", "zh-Hans", "ja", "de-AT, en;q=0.5", "xx, *"}
	// The throttled ones first, within the throttle's minute however slow
	// the others are (password hashing under -race).
	for _, lang := range langs {
		cases = append(cases, errorRequest{Method: "POST", Path: "/api-token-auth-throttled/", Body: `{}`, Headers: map[string]string{"Accept-Language": lang}})
	}
	for _, lang := range langs {
		for _, r := range base {
			h := map[string]string{}
			for k, v := range r.Headers {
				h[k] = v
			}
			if lang != "" {
				h["Accept-Language"] = lang
			}
			r.Headers = h
			cases = append(cases, r)
		}
	}
	for _, cookie := range []string{"django_language=ja", "django_language=zh-Hans", "django_language=xx"} {
		cases = append(cases, errorRequest{Method: "GET", Path: "/books/99999/", Headers: map[string]string{"Cookie": cookie, "Accept-Language": "de"}},
			errorRequest{Method: "GET", Path: "/auth/admin-only/", Headers: map[string]string{"Cookie": cookie}})
	}
	return throttle, cases
}

// Gadget is testdata/gadgets' model: a unique slug, a kind of two
// choices, an owner.
type Gadget struct {
	ID      int64  `db:"id" json:"id"`
	Slug    string `db:"slug" json:"slug" model:"max_length=50,unique"`
	Kind    string `db:"kind" json:"kind" model:"max_length=10"`
	OwnerID int64  `db:"owner_id" json:"owner" model:"foreign_key=auth_user"`
}

// Meta is the Django model's: the gadgets table and its kinds.
func (Gadget) Meta() models.Meta {
	return models.Meta{App: "gadgets", Table: "gadgets",
		Choices: map[string][]models.Choice{"kind": {{Value: "lamp", Label: "Lamp"}, {Value: "fan", Label: "Fan"}}}}
}

// gadgetCases are the validation errors of a unique field, a choice
// and a foreign key, in each language; a gadget is created first.
func gadgetCases() (before, cases []errorRequest) {
	before = []errorRequest{{Method: "POST", Path: "/gadgets/", Body: `{"slug": "lamp-1", "kind": "lamp", "owner": 1}`}}
	for _, lang := range []string{"", "de", "fr", "es", "pt-BR", "zh-Hans", "ja"} {
		for _, body := range []string{`{"slug": "lamp-1", "kind": "sofa", "owner": 99999}`, `{"slug": "x", "kind": "fan", "owner": "x"}`, `{}`} {
			cases = append(cases, errorRequest{Method: "POST", Path: "/gadgets/", Body: body, Headers: map[string]string{"Accept-Language": lang}})
		}
	}
	return before, cases
}

// The sample behind LocaleMiddleware answers its errors in the client's
// language as the DRF reference with Django's LocaleMiddleware does, at
// both levels: the same status, body, Content-Language and Vary.
func TestErrorsInTheClientsLanguageAreDRFs(t *testing.T) {
	throttle, cases := errorCases()
	before, gadgets := gadgetCases()
	throttle, cases = append(throttle, before...), append(cases, gadgets...)
	for _, lv := range levels {
		t.Run(lv.name, func(t *testing.T) {
			var want []errorAnswer
			python(t, lv.level, "drf_errors.py", map[string]any{"before": throttle, "requests": cases}, &want)
			do := localizedSample(t, lv.level)
			for _, r := range throttle {
				do(r)
			}
			for i, r := range cases {
				got := do(r)
				if got.Status == http.StatusTooManyRequests {
					// The wait counts down while the requests run.
					got.Body, want[i].Body = seconds.ReplaceAllString(got.Body, "N"), seconds.ReplaceAllString(want[i].Body, "N")
				}
				if got != want[i] {
					t.Errorf("%s %s %v:\n got %+v\nwant %+v", r.Method, r.Path, r.Headers, got, want[i])
				}
			}
		})
	}
}

// localizedSample serves the sample at level behind LocaleMiddleware, on
// a fresh SQLite database with the demo data.
func localizedSample(t *testing.T, level framework.Compatibility) func(errorRequest) errorAnswer {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "sample.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := sample.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := sample.Seed(ctx, db, sample.DefaultBooks); err != nil {
		t.Fatal(err)
	}
	h, err := sample.New(ctx, db, sample.Compatibility(level))
	if err != nil {
		t.Fatal(err)
	}
	locale, err := LocaleMiddleware(Config{Compatibility: level})
	if err != nil {
		t.Fatal(err)
	}
	h, g := locale(h), locale(gadgetAPI(t, db, level))
	return func(r errorRequest) errorAnswer {
		req := httptest.NewRequest(r.Method, r.Path, strings.NewReader(r.Body))
		req.Host = "127.0.0.1"
		req.RemoteAddr = "127.0.0.1:1234"
		req.Header.Set("Content-Type", "application/json")
		for k, v := range r.Headers {
			req.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		if strings.HasPrefix(r.Path, "/gadgets/") {
			g.ServeHTTP(w, req)
		} else {
			h.ServeHTTP(w, req)
		}
		return errorAnswer{Status: w.Code, Body: w.Body.String(), ContentLanguage: w.Header().Get("Content-Language"),
			Vary: strings.Join(w.Header().Values("Vary"), ", ")}
	}
}

// gadgetAPI serves /gadgets/ as testdata/gadgets does, on db.
func gadgetAPI(t *testing.T, db *sqlx.DB, level framework.Compatibility) http.Handler {
	t.Helper()
	if _, err := db.Exec(`CREATE TABLE "gadgets" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "slug" varchar(50) NOT NULL UNIQUE,
		"kind" varchar(10) NOT NULL, "owner_id" integer NOT NULL REFERENCES "auth_user" ("id"))`); err != nil {
		t.Fatal(err)
	}
	source, err := queryset.NewSQL[Gadget](db, queryset.SQLConfig{})
	if err != nil {
		t.Fatal(err)
	}
	vs := &generics.ModelViewSet[Gadget]{}
	vs.Authentication, vs.Permissions = framework.Authenticators(), framework.Permissions(framework.AllowAny{})
	vs.Source, vs.Serializer = source, serializers.MustNew[Gadget]()
	api := framework.NewAPI(db, framework.Settings{Compatibility: level,
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})})
	var router routers.SimpleRouter
	router.Register("gadgets", vs, "gadget")
	router.Mount(api)
	return api
}
