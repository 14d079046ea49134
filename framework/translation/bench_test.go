package translation

import (
	"net/http/httptest"
	"testing"

	"github.com/go-drf/drf/framework/compat"
)

// BenchmarkTranslate is the cost of translating the messages of an error
// answer: an exact message, and one with an argument.
func BenchmarkTranslate(b *testing.B) {
	c, err := loadCatalog(compat.Current)
	if err != nil {
		b.Fatal(err)
	}
	de := c.langs["de"]
	for _, msg := range []string{"Not found.", "Ensure this field has no more than 200 characters."} {
		b.Run(msg, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = de.Translate(msg)
			}
		})
	}
}

// BenchmarkLanguage is the cost of choosing a request's language.
func BenchmarkLanguage(b *testing.B) {
	l, err := newLocale(Config{})
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Accept-Language", "de-AT,de;q=0.9,en;q=0.8")
	b.ReportAllocs()
	for b.Loop() {
		_ = l.languageFrom(r)
	}
}
