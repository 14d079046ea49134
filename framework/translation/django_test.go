package translation

import (
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
)

// levels are the two compatibility levels, whose DRF and Django the
// oracles run on (pyrun.At).
var levels = []struct {
	name  string
	level compat.Level
}{
	{"drf314", compat.DRF314},
	{"drf318", compat.Current},
}

// python runs testdata/script with args at level (pyrun.Run), with in as
// its stdin, and decodes its JSON output into out.
func python(t *testing.T, level compat.Level, script string, in, out any, args ...string) {
	t.Helper()
	pyrun.Run(t, pyrun.At(level), filepath.Join("testdata", script), in, out, args...)
}

type languageRequest struct {
	Cookie *string `json:"cookie"`
	Header *string `json:"header"`
}

// acceptLanguageCases are Accept-Language headers and language cookies:
// the usual ones, the malformed, the long, and random mixes of tags,
// q-values and separators.
func acceptLanguageCases() []languageRequest {
	tags := []string{"de", "DE", "de-at", "de-AT", "de-ch", "pt-br", "pt-BR", "pt", "pt-pt", "zh-hans", "zh-Hans",
		"zh-cn", "zh-hk", "zh-tw", "zh-sg", "zh", "zh-hant-tw", "zh-hans-cn", "sr-latn", "sr-Latn", "sr", "en", "en-us",
		"en-gb", "en-au", "fr", "fr-fr", "fr-ca", "es", "es-419", "es-mx", "es-ar", "ja", "ja-jp", "x-klingon",
		"i-default", "*", "nb", "no", "nn", "he", "iw", "ar-dz", "ar", "sw", "xx", "ko-kr", "uz", "ru-ru", "tk",
		"de@euro", "en-\u212a", "ky", "ms", "ig", "ckb", "hy", "ast", "dsb", "kab", "x", "abcdefghi", "en-abcdefghi"}
	qs := []string{"", ";q=1", ";q=1.0", ";q=1.000", ";q=0", ";q=0.5", ";q=0.50", ";q=0.123", ";q=0.1234", ";q=2",
		" ; q=0.8", ";q=0.", ";Q=0.5", ";q=0.\u0665", ";q=-1", ";q=1.001", "; q = 0.5"}
	seps := []string{",", ", ", " , ", ",\t", ",,", " ", ";", "\u00a0,"}
	var headers []string
	for _, tag := range tags {
		headers = append(headers, tag)
	}
	headers = append(headers, "", " ", ",", "de,", ",de", "de-", "de--at", "de\n", "de;q=0.5,fr;q=0.5", "fr;q=0.5,de;q=0.6",
		"*;q=0.5, ja;q=0.4", "xx, *", "xx;q=1, ja;q=0.1", "en-us,en;q=0.5", strings.Repeat("xx,", 170)+"de",
		strings.Repeat("xx,", 160)+"de,fr", "de-"+strings.Repeat("a", 600), strings.Repeat("a-", 300)+"de")
	rng := rand.New(rand.NewPCG(43, 1))
	for range 600 {
		var b strings.Builder
		for i := range 1 + rng.IntN(4) {
			if i > 0 {
				b.WriteString(seps[rng.IntN(len(seps))])
			}
			b.WriteString(tags[rng.IntN(len(tags))])
			if rng.IntN(3) == 0 {
				b.WriteString(qs[rng.IntN(len(qs))])
			}
		}
		headers = append(headers, b.String())
	}
	var reqs []languageRequest
	for _, h := range headers {
		reqs = append(reqs, languageRequest{Header: &h})
	}
	for _, c := range []string{"de", "DE", "pt-br", "pt-BR", "zh-Hans", "zh-hans", "zh-cn", "de-at", "xx", "", "en",
		"sr-latn", "fr-fr", "es-419", "iw", "zh-hant-tw"} {
		reqs = append(reqs, languageRequest{Cookie: &c, Header: &headers[rng.IntN(len(headers))]}, languageRequest{Cookie: &c})
	}
	return append(reqs, languageRequest{})
}

// languageFrom chooses what Django's get_language_from_request does,
// for Django's LANGUAGES and for a project's own, at both levels.
func TestLanguageIsDjangos(t *testing.T) {
	cases := acceptLanguageCases()
	for _, lv := range levels {
		t.Run(lv.name, func(t *testing.T) {
			for _, cfg := range []Config{
				{},
				{LanguageCode: "fr", Languages: []string{"de", "pt-BR", "zh-Hans", "fr-ca", "es", "en-gb", "sr-latn"}},
				{LanguageCode: "de-at", Languages: []string{"de-at", "ja", "xx"}},
			} {
				cfg.Compatibility = lv.level
				var want []string
				python(t, lv.level, "language_from_request.py", map[string]any{
					"language_code": cmpOr(cfg.LanguageCode, "en-us"), "languages": cfg.Languages, "requests": cases}, &want)
				l, err := newLocale(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if len(want) != len(cases) {
					t.Fatalf("%d answers for %d requests", len(want), len(cases))
				}
				bad := 0
				for i, c := range cases {
					r := httptest.NewRequest("GET", "/", nil)
					if c.Header != nil {
						r.Header.Set("Accept-Language", *c.Header)
					}
					if c.Cookie != nil {
						r.Header.Set("Cookie", "django_language="+*c.Cookie)
					}
					if got := l.languageFrom(r); got != want[i] && bad < 20 {
						bad++
						t.Errorf("%v: cookie %q, Accept-Language %q: %q, Django chooses %q", cfg.Languages, deref(c.Cookie), deref(c.Header), got, want[i])
					}
				}
			}
		})
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}
