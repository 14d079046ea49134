package serializers_test

import (
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/testservers"
)

// RelUUIDHolder with PrimaryKeyRelatedField(pk_field=UUIDField(format=
// ...)) in the other formats: hex_verbose (pk_field=uuid), hex and urn.
type (
	relUUIDVerboseHolder struct {
		ID    int64  `db:"id" json:"id"`
		Field string `db:"field_id" json:"field" model:"foreign_key=drfrel_reluuidobject" drf:"pk_field=uuid"`
	}
	relUUIDHexHolder struct {
		ID    int64  `db:"id" json:"id"`
		Field string `db:"field_id" json:"field" model:"foreign_key=drfrel_reluuidobject" drf:"pk_field=uuid:hex"`
	}
	relUUIDURNHolder struct {
		ID    int64  `db:"id" json:"id"`
		Field string `db:"field_id" json:"field" model:"foreign_key=drfrel_reluuidobject" drf:"pk_field=uuid:urn"`
	}
)

func (relUUIDVerboseHolder) Meta() models.Meta { return relUUIDHolder{}.Meta() }
func (relUUIDHexHolder) Meta() models.Meta     { return relUUIDHolder{}.Meta() }
func (relUUIDURNHolder) Meta() models.Meta     { return relUUIDHolder{}.Meta() }

// TestRelationOptionsAsDRF: the relational fields' pk_field and
// lookup_field answer as drf_relations_suite.py's "relopts:" items show
// real DRF doing at both levels, on SQLite and PostgreSQL. A pk_field
// UUIDField reads a key in any of its spellings (32 digits, braces, a
// URN, an integer, true as 1) and writes it in its format; other input
// is "Must be a valid UUID.", and a UUID no row holds "Invalid pk
// "00000000-0000-0000-0000-000000000009" - object does not exist.". A
// lookup_field link is resolved by the route's lookup_url_kwarg (percent
// escapes and a bare path read), looked up by that column, and rendered
// with it; a link to another route, to no route, to no row, an integer
// and null are DRF's messages.
func TestRelationOptionsAsDRF(t *testing.T) {
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			drf := drfScriptAnswers(t, "drf_relations_suite.py", compatibility)
			testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
				n := relItems(t, db, compatibility, drf, "relopts:")
				if n != 20 {
					t.Errorf("%d relopts: items, want 20", n)
				}
			})
		})
	}
}
