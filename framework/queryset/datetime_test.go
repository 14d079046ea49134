package queryset_test

import (
	"testing"
	"time"

	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
)

// A DateTimeField on SQLite reads as Django's parse_datetime reads the
// stored text, whoever wrote it: the offsets Django accepts without a
// colon or minutes too, where the driver's own formats would read the
// zero time.
func TestDateTimeTextAsDjango(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	_, notes := shelfApp(t, db)
	if err := notes.Insert(ctx, &note{Text: "one", AuthorID: 1, Version: 1}); err != nil {
		t.Fatal(err)
	}
	for stored, want := range map[string]string{
		"2024-01-01 10:00:00":                  "2024-01-01T10:00:00Z",
		"2024-01-01 10:00:00.123456":           "2024-01-01T10:00:00.123456Z",
		"2024-01-01T10:00:00.5+05:30":          "2024-01-01T04:30:00.5Z",
		"2024-01-01 10:00:00+0530":             "2024-01-01T04:30:00Z",
		"2024-01-01 10:00:00-02":               "2024-01-01T12:00:00Z",
		"2024-01-01 10:00Z":                    "2024-01-01T10:00:00Z",
		"2024-02-29 23:59:59.999999+00:00":     "2024-02-29T23:59:59.999999Z",
		"2024-01-01 10:00:00.1234567890+00:00": "2024-01-01T10:00:00.123456Z",
	} {
		if _, err := db.Exec(`UPDATE "shelf_note" SET "created" = ?`, stored); err != nil {
			t.Fatal(err)
		}
		got, err := notes.Get(ctx, "id", "1")
		if err != nil {
			t.Fatalf("%q: %v", stored, err)
		}
		if s := got.Created.Format(time.RFC3339Nano); s != want || got.Created.Location() != time.UTC {
			t.Errorf("%q read as %s (%v), want %s", stored, s, got.Created.Location(), want)
		}
		items, err := queryset.Source[note](notes).Slice(ctx, 0, 1)
		if err != nil || len(items) != 1 || !items[0].Created.Equal(got.Created) {
			t.Errorf("%q in a list: %v %v", stored, err, items)
		}
	}
}

// A hand-written query's column is the query's, not a model's
// DateTimeField: a date column read into a time.Time is still the
// driver's (midnight UTC), not refused as no datetime.
func TestDateTimeOfAQueryKeptAsTheDriverReadsIt(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	for _, q := range []string{
		`CREATE TABLE "days" ("id" integer PRIMARY KEY, "day" date NOT NULL)`,
		`INSERT INTO "days" VALUES (1, '2024-03-01')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	type day struct {
		ID  int       `db:"id" json:"id"`
		Day time.Time `db:"day" json:"day"`
	}
	days := queryset.MustSQL[day](db, queryset.SQLConfig{Query: `SELECT "id", "day" FROM "days"`, Table: "days"})
	items, err := queryset.Source[day](days).Slice(ctx, 0, -1)
	if err != nil || len(items) != 1 || !items[0].Day.Equal(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("read %v %+v", err, items)
	}
}
