package serializers_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// selectRE and optionRE read a form's selects: DRF's (spaces around
// selected) and the browsable page's.
var (
	selectRE = regexp.MustCompile(`(?s)<select[^>]*name="(\w+)"[^>]*>(.*?)</select>`)
	optionRE = regexp.MustCompile(`<option value="([^"]*)"\s*(selected)?\s*(disabled)?\s*>([^<]*)</option>`)
)

// formSelects lists the options of the selects of the form whose ids
// start with prefix ("" for DRF's single form) as "value=label", "*" for
// a selected one, "!" for a disabled one.
func formSelects(body, prefix string) map[string][]string {
	out := map[string][]string{}
	for _, s := range selectRE.FindAllStringSubmatch(body, -1) {
		if prefix != "" && !strings.Contains(s[0], `id="`+prefix+`-`) {
			continue
		}
		for _, o := range optionRE.FindAllStringSubmatch(s[2], -1) {
			opt := o[1] + "=" + o[4]
			if o[2] != "" {
				opt += "*"
			}
			if o[3] != "" {
				opt += "!"
			}
			out[s[1]] = append(out[s[1]], opt)
		}
	}
	return out
}

// The browsable forms of the writable relational fields are DRF's
// selects of the related rows (drf_relations.py's forms: the PK, slug
// and hyperlinked serializers' empty forms, and the PK one filled with
// snippet "one"), on SQLite and PostgreSQL: the related rows the view's
// source lists, the key, the slug or the URL sent, the display column
// (drf:"display=username") shown, "--------" first for a nullable key; beyond 1000 rows,
// DRF's disabled "More than 1000 items..." ends the list.
func TestRelationalFormSelectsAsDRF(t *testing.T) {
	var drf map[string]any
	drfsuite.RunDRF(t, framework.DRF314, "testdata/drf_relations.py", nil, &drf)
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		relTables(t, db)
		api := framework.NewAPI(nil, framework.Settings{Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})})
		pk := generics.GenericAPIView[pkSnippet]{Source: queryset.MustSQL[pkSnippet](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[pkSnippet]()}
		slug := generics.GenericAPIView[slugSnippet]{Source: queryset.MustSQL[slugSnippet](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[slugSnippet]()}
		link := generics.GenericAPIView[linkSnippet]{Source: queryset.MustSQL[linkSnippet](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[linkSnippet]()}
		users := generics.GenericAPIView[relUser]{Source: queryset.MustSQL[relUser](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[relUser]()}
		api.Handle("/pk/", generics.ListCreateAPIView(pk))
		api.Handle("/pk/{pk}/", generics.RetrieveUpdateAPIView(pk))
		api.Handle("/slug/", generics.ListCreateAPIView(slug))
		api.Handle("/link/", generics.ListCreateAPIView(link))
		api.Handle("/users/{pk}/", generics.RetrieveAPIView(users), framework.Named("user-detail"))
		c := apitest.New(t, api)
		for _, form := range []struct{ path, id, drf string }{
			{"/pk/", "post", "pk_form"},
			{"/slug/", "post", "slug_form"},
			{"/link/", "post", "link_form"},
			{"/pk/1/", "put", "pk_form_filled"},
		} {
			page := c.Get(form.path, "Accept: text/html")
			got, want := formSelects(page.Body, form.id), formSelects(drf[form.drf].(string), "")
			if len(want) != 2 || len(got) != 2 || !slices.Equal(got["owner"], want["owner"]) || !slices.Equal(got["reviewer"], want["reviewer"]) {
				t.Errorf("GET %s: the %s form's selects %v, DRF's %v", form.path, form.id, got, want)
			}
		}
		// DRF's html_cutoff: 1000 rows, then a disabled option.
		for i := range 1000 {
			db.MustExec(db.Rebind(`INSERT INTO "rel_user" ("username", "email") VALUES (?, '')`), fmt.Sprintf("u%04d", i))
		}
		got := formSelects(c.Get("/slug/", "Accept: text/html").Body, "post")
		if owner := got["owner"]; len(owner) != 1001 || owner[999] != "u0997=u0997" || owner[1000] != "n/a=More than 1000 items...!" {
			t.Errorf("1002 users: %d options, ending %v", len(owner), owner[max(len(owner)-2, 0):])
		}
		if reviewer := got["reviewer"]; len(reviewer) != 1002 || reviewer[0] != "=--------*" {
			t.Errorf("1002 users, a nullable key: %d options, starting %v", len(reviewer), reviewer[:1])
		}
	})
}
