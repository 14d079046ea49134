package serializers_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// dimsMedia is the media directory of the models of drf_files_dims.py,
// which their Meta reads once.
var dimsMedia string

// dimsPhoto is testdata/drf_files_dims.py's Photo: an ImageField whose
// width and height fields are editable=False.
type dimsPhoto struct {
	ID     int64       `db:"id" json:"id"`
	Title  string      `db:"title" json:"title" model:"max_length=50"`
	Image  *files.File `db:"image" json:"image" model:"field=ImageField,upload_to=photos/,blank,width_field=width,height_field=height"`
	Width  *uint32     `db:"width" json:"width" model:"blank,editable=false"`
	Height *uint32     `db:"height" json:"height" model:"blank,editable=false"`
}

func (dimsPhoto) Meta() models.Meta {
	return models.Meta{App: "shelf", Name: "Photo",
		Storage: map[string]files.Storage{"image": files.FileSystemStorage{Location: dimsMedia, BaseURL: "/media/"}}}
}

// dimsPoster is drf_files_dims.py's Poster: its width and height fields
// are plain IntegerFields.
type dimsPoster struct {
	ID    int64      `db:"id" json:"id"`
	Image files.File `db:"image" json:"image" model:"field=ImageField,upload_to=posters/,width_field=w,height_field=h"`
	W     int32      `db:"w" json:"w" model:"default=0"`
	H     int32      `db:"h" json:"h" model:"default=0"`
}

func (dimsPoster) Meta() models.Meta {
	return models.Meta{App: "shelf", Name: "Poster",
		Storage: map[string]files.Storage{"image": files.FileSystemStorage{Location: dimsMedia, BaseURL: "/media/"}}}
}

// drfDims is what testdata/drf_files_dims.py prints.
type drfDims struct {
	Steps []struct {
		Label  string              `json:"label"`
		Method string              `json:"method"`
		Path   string              `json:"path"`
		Body   string              `json:"body"`
		Status int                 `json:"status"`
		Answer json.RawMessage     `json:"answer"`
		Rows   [][]json.RawMessage `json:"rows"`
	} `json:"steps"`
	Options map[string]json.RawMessage `json:"options"`
}

// TestImageDimensionsAsDRF sends the multipart bodies of
// testdata/drf_files_dims.py (run with DRF 3.14 / Django 3.2 and DRF
// 3.18 / Django 5.2, with Debian's Pillow) to generic views of
// ModelSerializers over an ImageField with width_field and height_field,
// on SQLite and PostgreSQL: an upload fills them with its size (PNG, GIF,
// JPEG), a PATCH of other fields leaves them, clearing the image nulls
// them, read-only ones ignore what is sent; each answer, each row's
// dimensions, and OPTIONS equal DRF's.
func TestImageDimensionsAsDRF(t *testing.T) {
	if dimsMedia == "" {
		dimsMedia = t.TempDir()
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfDims
			drfsuite.RunDRF(t, compatibility, "testdata/drf_files_dims.py", nil, &drf)
			if len(drf.Steps) == 0 {
				t.Fatal("no steps")
			}
			testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
				t.Cleanup(func() {
					entries, _ := os.ReadDir(dimsMedia)
					for _, e := range entries {
						os.RemoveAll(filepath.Join(dimsMedia, e.Name()))
					}
				})
				id := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
				if store.DialectOf(db) == store.PostgreSQL {
					id = "bigserial NOT NULL PRIMARY KEY"
				}
				db.MustExec(`CREATE TABLE "shelf_photo" ("id" ` + id + `, "title" varchar(50) NOT NULL, ` +
					`"image" varchar(100) NULL, "width" integer NULL, "height" integer NULL)`)
				db.MustExec(`CREATE TABLE "shelf_poster" ("id" ` + id + `, "image" varchar(100) NOT NULL, ` +
					`"w" integer NOT NULL, "h" integer NOT NULL)`)
				api := framework.NewAPI(nil, framework.Settings{Compatibility: compatibility})
				photos := generics.GenericAPIView[dimsPhoto]{Source: queryset.MustSQL[dimsPhoto](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[dimsPhoto]()}
				posters := generics.GenericAPIView[dimsPoster]{Source: queryset.MustSQL[dimsPoster](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[dimsPoster]()}
				api.Handle("/photos/", generics.ListCreateAPIView(photos))
				api.Handle("/photos/{pk}/", generics.RetrieveUpdateAPIView(photos))
				api.Handle("/posters/", generics.ListCreateAPIView(posters))
				api.Handle("/posters/{pk}/", generics.RetrieveUpdateAPIView(posters))
				c := apitest.New(t, api)
				dims := map[string]string{"photos": `SELECT "width", "height" FROM "shelf_photo" ORDER BY "id"`,
					"posters": `SELECT "w", "h" FROM "shelf_poster" ORDER BY "id"`}
				for _, s := range drf.Steps {
					body := make([]byte, 0, len(s.Body))
					for _, r := range s.Body {
						body = append(body, byte(r)) // the script's body, as Latin-1
					}
					r := c.Do(s.Method, s.Path, string(body), "Content-Type: multipart/form-data; boundary=BoUnDaRy")
					if r.Status != s.Status || !sameJSON(t, []byte(r.Body), s.Answer) {
						t.Errorf("%s: %s %s: %d %s\nDRF: %d %s", s.Label, s.Method, s.Path, r.Status, r.Body, s.Status, s.Answer)
					}
					var got [][2]*int64
					rows, err := db.Query(dims[strings.Split(s.Path, "/")[1]])
					if err != nil {
						t.Fatal(err)
					}
					for rows.Next() {
						var w, h *int64
						if err := rows.Scan(&w, &h); err != nil {
							t.Fatal(err)
						}
						got = append(got, [2]*int64{w, h})
					}
					rows.Close()
					var want [][2]*int64
					for _, row := range s.Rows {
						var w, h *int64
						json.Unmarshal(row[len(row)-2], &w)
						json.Unmarshal(row[len(row)-1], &h)
						want = append(want, [2]*int64{w, h})
					}
					if g, w := dimsText(got), dimsText(want); g != w {
						t.Errorf("%s: dimensions %s, DRF's rows %s", s.Label, g, w)
					}
				}
				for name, want := range drf.Options {
					want = withoutRanges(t, want)
					r := c.Do("OPTIONS", "/"+name+"/", "")
					var got struct {
						Actions struct {
							POST json.RawMessage `json:"POST"`
						} `json:"actions"`
					}
					if err := json.Unmarshal([]byte(r.Body), &got); err != nil || !sameJSON(t, got.Actions.POST, want) {
						t.Errorf("OPTIONS /%s/: %s\nDRF: %s", name, got.Actions.POST, want)
					}
				}
			})
		})
	}
}

// dimsText shows rows of (width, height), "null" for NULL.
func dimsText(rows [][2]*int64) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString("(")
		for i, v := range r {
			if i > 0 {
				b.WriteString(", ")
			}
			if v == nil {
				b.WriteString("null")
			} else {
				fmt.Fprint(&b, *v)
			}
		}
		b.WriteString(")")
	}
	return b.String()
}

// withoutRanges is an OPTIONS answer without the min_value and max_value
// of writable integer fields: the range of the database's integer that
// Django 5 adds to an IntegerField's validators (SQLite's 64 bits here),
// which the model layer does not describe; the rest is compared.
func withoutRanges(t *testing.T, options json.RawMessage) json.RawMessage {
	var fields map[string]map[string]any
	if err := json.Unmarshal(options, &fields); err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		delete(f, "min_value")
		delete(f, "max_value")
	}
	out, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
