package translation

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
)

// Every message of the catalogs, formatted in English with its
// arguments, comes out of Translate as Django's gettext formats it in
// each language; text that two messages format alike is left out: it
// takes the translation of the first, DRF's before Django's.
func TestEveryMessageIsDjangos(t *testing.T) {
	for _, lv := range levels {
		t.Run(lv.name, func(t *testing.T) {
			path, err := filepath.Abs(filepath.Join("catalogs", lv.name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var want []struct {
				English      string
				Translations map[string]string
			}
			python(t, lv.level, "messages.py", nil, &want, path)
			c, err := loadCatalog(lv.level)
			if err != nil {
				t.Fatal(err)
			}
			checked, bad := 0, 0
			for _, m := range want {
				if c.messagesOf(m.English) > 1 {
					continue
				}
				for code, text := range m.Translations {
					checked++
					if got := c.langs[code].Translate(m.English); got != text && bad < 30 {
						bad++
						t.Errorf("%s: %q is %q, Django's %q", code, m.English, got, text)
					}
				}
			}
			if checked < 10000 {
				t.Errorf("only %d translations checked", checked)
			}
		})
	}
}

// The plural forms of every catalog pick what Python's gettext picks.
func TestPluralFormsArePythons(t *testing.T) {
	exprs := map[string]bool{}
	for _, lv := range levels {
		c, err := loadCatalog(lv.level)
		if err != nil {
			t.Fatal(err)
		}
		for _, entries := range c.file.Catalogs {
			for _, raw := range entries {
				var p struct{ Plural string }
				if raw[0] == '{' {
					if err := json.Unmarshal(raw, &p); err != nil {
						t.Fatal(err)
					}
					exprs[p.Plural] = true
				}
			}
		}
	}
	if len(exprs) < 5 {
		t.Fatalf("only %d plural forms", len(exprs))
	}
	for expr := range exprs {
		out, err := exec.Command("/usr/bin/python3", "-c",
			"import gettext, sys, json; f = gettext.c2py(sys.argv[1]); print(json.dumps([f(n) for n in range(2001)]))", expr).Output()
		if err != nil {
			t.Skipf("no /usr/bin/python3: %v", err)
		}
		var want []int
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatal(err)
		}
		f, err := compilePlural(expr)
		if err != nil {
			t.Fatal(err)
		}
		for n, w := range want {
			if got := f(n); got != w {
				t.Errorf("%s: n=%d gives %d, Python %d", expr, n, got, w)
				break
			}
		}
	}
}

// Malformed plural forms are refused.
func TestPluralFormsRefused(t *testing.T) {
	for _, expr := range []string{"", "n ==", "(n", "n ? 1", "n $ 2", "1 2"} {
		if _, err := compilePlural(expr); err == nil {
			t.Errorf("%q compiled", expr)
		}
	}
}

// Misconfiguration fails at setup, naming the setting and the code.
func TestConfigRefused(t *testing.T) {
	for _, c := range []Config{
		{LanguageCode: "en_US"},
		{Languages: []string{"de", "pt_BR"}},
		{Compatibility: compat.Level(99)},
	} {
		if _, err := LocaleMiddleware(c); err == nil {
			t.Errorf("%+v accepted", c)
		} else {
			t.Log(err)
		}
	}
}

// messagesOf counts the messages whose English text msg could be.
func (c *catalog) messagesOf(msg string) int {
	found := map[int]bool{}
	if i, ok := c.exact[msg]; ok {
		found[i] = true
	}
	for _, p := range c.patterns {
		if p.re.MatchString(msg) {
			found[p.msg] = true
		}
	}
	return len(found)
}

// The committed catalogs are what scripts/generate-translations writes
// from the installed packages.
func TestCatalogsAreGenerated(t *testing.T) {
	pyrun.Need(t, pyrun.DRF314, "rest_framework")
	pyrun.Need(t, pyrun.DRF318, "rest_framework")
	out, err := exec.Command(filepath.Join("..", "..", "scripts", "generate-translations"), "--check").CombinedOutput()
	if err != nil {
		t.Errorf("scripts/generate-translations --check: %v\n%s", err, out)
	}
}

// Every answer gets the language headers, an empty one too; an answer's
// own Content-Language stays, and Vary keeps Accept-Language once.
func TestLocaleMiddlewareHeaders(t *testing.T) {
	locale, err := LocaleMiddleware(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name           string
		handler        http.HandlerFunc
		language, vary string
	}{
		{"empty", func(http.ResponseWriter, *http.Request) {}, "de", "Accept-Language"},
		{"own", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Language", "fr")
			w.Header().Set("Vary", "Accept, accept-language")
			_, _ = w.Write([]byte("x"))
		}, "fr", "Accept, accept-language"},
		{"cookie", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Vary", "Accept, Cookie")
			w.WriteHeader(http.StatusNoContent)
		}, "de", "Accept, Accept-Language, Cookie"},
		{"star", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Vary", "*")
			w.WriteHeader(http.StatusNoContent)
		}, "de", "*"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Language", "de-DE, en;q=0.5")
		w := httptest.NewRecorder()
		locale(tc.handler).ServeHTTP(w, r)
		if got := w.Header().Get("Content-Language"); got != tc.language {
			t.Errorf("%s: Content-Language %q, want %q", tc.name, got, tc.language)
		}
		if got := strings.Join(w.Header().Values("Vary"), ", "); got != tc.vary {
			t.Errorf("%s: Vary %q, want %q", tc.name, got, tc.vary)
		}
	}
}
