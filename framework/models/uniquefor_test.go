package models_test

import (
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/models"
)

type (
	ufPost struct {
		ID      int         `db:"id"`
		Slug    string      `db:"slug" model:"max_length=50,unique_for_date=pub_date,unique_for_year=updated"`
		Title   string      `db:"title" model:"max_length=50,unique_for_month=pub_date"`
		PubDate models.Date `db:"pub_date"`
		Updated time.Time   `db:"updated"`
	}
	ufNoDate struct {
		ID    int    `db:"id"`
		Slug  string `db:"slug" model:"max_length=50,unique_for_date=title"`
		Title string `db:"title" model:"max_length=50"`
	}
	ufMissing struct {
		ID   int    `db:"id"`
		Slug string `db:"slug" model:"max_length=50,unique_for_year=published"`
	}
	ufEmpty struct {
		ID   int    `db:"id"`
		Slug string `db:"slug" model:"max_length=50,unique_for_date"`
	}
)

// TestUniqueForOptions: unique_for_date, unique_for_month and
// unique_for_year name a DateField or DateTimeField of the model, which
// the field keeps; another field, no field or no name is a setup error
// naming the model and the field.
func TestUniqueForOptions(t *testing.T) {
	d, err := models.Of[ufPost]()
	if err != nil {
		t.Fatal(err)
	}
	slug, title := d.Field("slug"), d.Field("title")
	if slug.UniqueForDate != "pub_date" || slug.UniqueForYear != "updated" || slug.UniqueForMonth != "" || title.UniqueForMonth != "pub_date" {
		t.Errorf("slug %q %q %q, title %q", slug.UniqueForDate, slug.UniqueForMonth, slug.UniqueForYear, title.UniqueForMonth)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{errOf[ufNoDate](), `models: ufNoDate: field "slug": unique_for_date=title names no DateField or DateTimeField`},
		{errOf[ufMissing](), `models: ufMissing: field "slug": unique_for_year=published names no DateField or DateTimeField`},
		{errOf[ufEmpty](), `model option "unique_for_date" needs a value`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
}
