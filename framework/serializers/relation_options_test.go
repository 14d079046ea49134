package serializers_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// cutSnippet's owner lists two options at most, then "Two only".
type cutSnippet struct {
	ID       int64  `db:"id" json:"id"`
	Title    string `db:"title" json:"title" model:"max_length=100"`
	Owner    int64  `db:"owner_id" json:"owner" model:"foreign_key=rel_user" drf:"display=username,html_cutoff=2,html_cutoff_text=Two only"`
	Reviewer *int64 `db:"reviewer_id" json:"reviewer" model:"foreign_key=rel_user,on_delete=set_null" drf:"display=username"`
}

func (cutSnippet) Meta() models.Meta { return pkSnippet{}.Meta() }

// The select of a relational field in the browsable form is cut as DRF's
// html_cutoff cuts it, on SQLite and PostgreSQL: Settings.HTMLSelectCutoff
// and HTMLSelectCutoffText (HTML_SELECT_CUTOFF, HTML_SELECT_CUTOFF_TEXT,
// "{count}" the cutoff) for every field, a field's html_cutoff and
// html_cutoff_text over them; as many rows as the cutoff already end
// with the disabled option (DRF's queryset[:cutoff]); a negative setting
// lists every row.
func TestHTMLSelectCutoff(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		relTables(t, db)
		db.MustExec(`INSERT INTO "rel_user" ("username", "email") VALUES ('cy', ''), ('di', '')`)
		page := func(settings framework.Settings) map[string][]string {
			settings.Renderers = framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})
			api := framework.NewAPI(nil, settings)
			g := generics.GenericAPIView[cutSnippet]{Source: queryset.MustSQL[cutSnippet](db, queryset.SQLConfig{}),
				Serializer: serializers.MustNew[cutSnippet]()}
			api.Handle("/cut/", generics.ListCreateAPIView(g))
			return formSelects(apitest.New(t, api).Get("/cut/", "Accept: text/html").Body, "post")
		}
		for _, tc := range []struct {
			settings        framework.Settings
			owner, reviewer []string
		}{
			{framework.Settings{}, []string{"1=ann", "2=bob", "n/a=Two only!"},
				[]string{"=--------*", "1=ann", "2=bob", "3=cy", "4=di"}},
			{framework.Settings{HTMLSelectCutoff: 3, HTMLSelectCutoffText: "Over {count}"}, []string{"1=ann", "2=bob", "n/a=Two only!"},
				[]string{"=--------*", "1=ann", "2=bob", "3=cy", "n/a=Over 3!"}},
			{framework.Settings{HTMLSelectCutoff: 4}, []string{"1=ann", "2=bob", "n/a=Two only!"},
				[]string{"=--------*", "1=ann", "2=bob", "3=cy", "4=di", "n/a=More than 4 items...!"}},
			{framework.Settings{HTMLSelectCutoff: -1}, []string{"1=ann", "2=bob", "n/a=Two only!"},
				[]string{"=--------*", "1=ann", "2=bob", "3=cy", "4=di"}},
		} {
			got := page(tc.settings)
			if !slices.Equal(got["owner"], tc.owner) || !slices.Equal(got["reviewer"], tc.reviewer) {
				t.Errorf("%+v: owner %v, reviewer %v; want %v, %v", tc.settings, got["owner"], got["reviewer"], tc.owner, tc.reviewer)
			}
		}
	})
}

// Setup errors of the relational fields' options: each names the
// serializer's type and the field.
type (
	badCutoffZero struct {
		ID    int64 `db:"id" json:"id"`
		Owner int64 `db:"owner_id" json:"owner" model:"foreign_key=rel_user" drf:"html_cutoff=0"`
	}
	badCutoffNotRelated struct {
		ID    int64  `db:"id" json:"id"`
		Title string `db:"title" json:"title" drf:"html_cutoff=5"`
	}
	badCutoffReadOnly struct {
		ID    int64 `db:"id" json:"id"`
		Owner int64 `db:"owner_id" json:"owner" model:"foreign_key=rel_user" drf:"read_only,html_cutoff=5"`
	}
	badLookupNoView struct {
		ID      int64  `db:"id" json:"id"`
		OwnerID int64  `db:"owner_id" json:"-" model:"foreign_key=rel_user"`
		Owner   string `json:"owner" drf:"source=owner.username,lookup_field=username"`
	}
	badLookupColumn struct {
		ID      int64  `db:"id" json:"id"`
		OwnerID int64  `db:"owner_id" json:"-" model:"foreign_key=rel_user"`
		Owner   string `json:"owner" drf:"source=owner.email,view_name=user-detail,lookup_field=username"`
	}
	badLookupKey struct {
		ID    int64 `db:"id" json:"id"`
		Owner int64 `db:"owner_id" json:"owner" model:"foreign_key=rel_user" drf:"view_name=user-detail,lookup_field=username"`
	}
	badPKFieldFormat struct {
		ID    int64  `db:"id" json:"id"`
		Owner string `db:"owner_id" json:"owner" model:"foreign_key=rel_user" drf:"pk_field=uuid:base64"`
	}
	badPKFieldKind struct {
		ID    int64 `db:"id" json:"id"`
		Owner int64 `db:"owner_id" json:"owner" model:"foreign_key=rel_user" drf:"pk_field=uuid"`
	}
	badPKFieldLink struct {
		ID    int64  `db:"id" json:"id"`
		Owner string `db:"owner_id" json:"owner" model:"foreign_key=rel_user" drf:"view_name=user-detail,pk_field=uuid"`
	}
)

func (badCutoffZero) Meta() models.Meta       { return pkSnippet{}.Meta() }
func (badCutoffNotRelated) Meta() models.Meta { return pkSnippet{}.Meta() }
func (badCutoffReadOnly) Meta() models.Meta   { return pkSnippet{}.Meta() }
func (badLookupNoView) Meta() models.Meta     { return pkSnippet{}.Meta() }
func (badLookupColumn) Meta() models.Meta     { return pkSnippet{}.Meta() }
func (badLookupKey) Meta() models.Meta        { return pkSnippet{}.Meta() }
func (badPKFieldFormat) Meta() models.Meta    { return pkSnippet{}.Meta() }
func (badPKFieldKind) Meta() models.Meta      { return pkSnippet{}.Meta() }
func (badPKFieldLink) Meta() models.Meta      { return pkSnippet{}.Meta() }

// An option a relational field cannot take, or a value it cannot hold,
// fails at setup, naming the serializer's type, the field and the option.
func TestRelationOptionsRefused(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{relOptionsErr[badCutoffZero](), "badCutoffZero.Owner: bad drf tag option \"html_cutoff=0\": html_cutoff needs a positive number"},
		{relOptionsErr[badCutoffNotRelated](), "badCutoffNotRelated.Title: html_cutoff and html_cutoff_text need a writable relational field"},
		{relOptionsErr[badCutoffReadOnly](), "badCutoffReadOnly.Owner: html_cutoff and html_cutoff_text need a writable relational field"},
		{relOptionsErr[badLookupNoView](), "badLookupNoView.Owner: lookup_field and lookup_url_kwarg need a hyperlinked field (view_name)"},
		{relOptionsErr[badLookupColumn](), "badLookupColumn.Owner: lookup_field username needs a dotted source through a foreign key to that column"},
		{relOptionsErr[badLookupKey](), "badLookupKey.Owner: lookup_field username needs a dotted source through a foreign key to that column"},
		{relOptionsErr[badPKFieldFormat](), "badPKFieldFormat.Owner: bad drf tag option \"pk_field=uuid:base64\": pk_field needs uuid or uuid:FORMAT"},
		{relOptionsErr[badPKFieldKind](), "badPKFieldKind.Owner: pk_field needs a writable foreign key of string keys"},
		{relOptionsErr[badPKFieldLink](), "badPKFieldLink.Owner: pk_field needs a writable foreign key of string keys"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("got %v, want %q", tc.err, tc.want)
		}
	}
}

// relOptionsErr is New's setup error for T.
func relOptionsErr[T any]() error {
	_, err := serializers.New[T]()
	return err
}
