package serializers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/translation"
	"github.com/go-drf/drf/internal/drfsuite"
)

// The fields of drf_localize.py's FIELDS.
type (
	locTest struct {
		F decimal.Decimal `json:"f" drf:"max_digits=2,decimal_places=1,localize"`
	}
	locNumber struct {
		F decimal.Decimal `json:"f" drf:"max_digits=2,decimal_places=1,coerce_to_string=false,localize"`
	}
	locWide struct {
		F decimal.Decimal `json:"f" drf:"max_digits=15,decimal_places=3,localize"`
	}
	locFree struct {
		F decimal.Decimal `json:"f" drf:"localize"`
	}
)

// localized returns body's data and a serializer Context for a request
// whose language LocaleMiddleware chose: lang, the only one of
// LANGUAGES, under USE_THOUSAND_SEPARATOR when thousands is set.
func localized(t *testing.T, level framework.Compatibility, lang string, thousands bool, body string) (any, *serializers.Context) {
	t.Helper()
	mw, err := translation.LocaleMiddleware(translation.Config{LanguageCode: lang, Languages: []string{lang},
		UseThousandSeparator: thousands, Compatibility: level})
	if err != nil {
		t.Fatal(err)
	}
	var data any
	var c *serializers.Context
	mw(http.HandlerFunc(func(_ http.ResponseWriter, hr *http.Request) {
		r := request.New(hr, request.Config{Parsers: []request.Parser{framework.JSONParser{}}, Compatibility: level})
		if data, err = r.Data(); err != nil {
			t.Fatal(err)
		}
		c = &serializers.Context{Request: r}
	})).ServeHTTP(httptest.NewRecorder(), jsonRequest(body))
	return data, c
}

func jsonRequest(body string) *http.Request {
	hr := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	hr.Header.Set("Content-Type", "application/json")
	return hr
}

// localizedAnswer is what a serializer of T answers drf_localize.py's
// case: the validated value as rendered, or the field's errors in the
// request's language (as the exception handler translates them); for
// kind "out", the rendering of the stored value.
func localizedAnswer[T any](t *testing.T, kind string, data any, c *serializers.Context) string {
	t.Helper()
	s := serializers.MustNew[T]()
	var obj T
	if kind == "out" {
		if err := json.Unmarshal([]byte(fmt.Sprintf(`{"f":%q}`, data)), &obj); err != nil {
			t.Fatal(err)
		}
	} else if err := s.ValidateNew(data, &obj, c); err != nil {
		var detail map[string][]string
		if err := json.Unmarshal([]byte(strings.TrimPrefix(errorBody(err), "400 ")), &detail); err != nil {
			t.Fatal(err)
		}
		var errs any = detail["f"]
		if tr := framework.TranslatorFrom(c.Request.Context()); tr != nil {
			errs = framework.TranslateDetail(tr, detail["f"])
		}
		out, _ := json.Marshal(map[string]any{"errors": errs})
		return string(out)
	}
	out, err := s.Data(&obj, c)
	if err != nil {
		t.Fatal(err)
	}
	return `{"value":` + strings.TrimSuffix(strings.TrimPrefix(string(out), `{"f":`), `}`) + `}`
}

// TestLocalizedDecimalAsDRF: a decimal's localize is DRF's
// DecimalField(localize=True) in a request LocaleMiddleware localized, as
// DRF 3.14 (under USE_L10N) and 3.18 answer drf_localize.py in each of
// its languages, with USE_THOUSAND_SEPARATOR off and on: inputs read with
// the language's decimal separator (and its thousand separators, or
// their NFKD form, when set), outputs written with them, always as a
// string; errors in the language. Each answer is compared byte for byte.
func TestLocalizedDecimalAsDRF(t *testing.T) {
	fields := map[string]func(t *testing.T, kind string, data any, c *serializers.Context) string{
		"test": localizedAnswer[locTest], "number": localizedAnswer[locNumber],
		"wide": localizedAnswer[locWide], "free": localizedAnswer[locFree],
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf struct {
				Versions map[string]string `json:"versions"`
				Cases    [][6]json.RawMessage
			}
			drfsuite.RunDRF(t, compatibility, "testdata/drf_localize.py", nil, &drf)
			if len(drf.Cases) < 1000 {
				t.Fatalf("%d cases", len(drf.Cases))
			}
			for _, c := range drf.Cases {
				var lang, field, kind string
				var thousands bool
				for i, dst := range []any{&lang, &thousands, &field, &kind} {
					if err := json.Unmarshal(c[i], dst); err != nil {
						t.Fatal(err)
					}
				}
				body := `{"f":` + string(c[4]) + `}`
				data, ctx := localized(t, compatibility, lang, thousands, body)
				if kind == "out" {
					var stored string
					if err := json.Unmarshal(c[4], &stored); err != nil {
						t.Fatal(err)
					}
					data = stored
				}
				got := fields[field](t, kind, data, ctx)
				if !sameJSON(t, []byte(got), c[5]) {
					t.Errorf("%s, thousands %v, %s %s %s (DRF %s): %s, want %s", lang, thousands, field, kind, c[4],
						drf.Versions["rest_framework"], got, c[5])
				}
			}
		})
	}
}

// TestDRFLocalizedDecimalField is DRF 3.18's TestLocalizedDecimalField,
// at both levels, with LANGUAGE_CODE 'pl' the language LocaleMiddleware
// chooses.
func TestDRFLocalizedDecimalField(t *testing.T) {
	for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
		data, c := localized(t, level, "pl", false, `{"f": "1,1"}`)
		if got := localizedAnswer[locTest](t, "in", data, c); got != `{"value":"1,1"}` {
			t.Errorf("test_to_internal_value: %s", got)
		}
		var v locTest
		if err := serializers.MustNew[locTest]().ValidateNew(data, &v, c); err != nil || v.F.String() != "1.1" {
			t.Errorf("test_to_internal_value: %v, %v", v.F, err)
		}
		if got := localizedAnswer[locTest](t, "out", "1.1", c); got != `{"value":"1,1"}` {
			t.Errorf("test_to_representation: %s", got)
		}
		if got := localizedAnswer[locNumber](t, "out", "1.1", c); got != `{"value":"1,1"}` {
			t.Errorf("test_localize_forces_coerce_to_string: %s", got)
		}
		// Outside a localized request, numbers are English: a string still.
		if got := localizedAnswer[locNumber](t, "out", "1.1", nil); got != `{"value":"1.1"}` {
			t.Errorf("test_localize_forces_coerce_to_string, no language: %s", got)
		}
	}
}

// TestLocalizeNeedsADecimal: localize on a field that is no decimal is a
// setup error naming the field.
func TestLocalizeNeedsADecimal(t *testing.T) {
	type item struct {
		F float64 `json:"f" drf:"localize"`
	}
	_, err := serializers.New[item]()
	if err == nil || !strings.Contains(err.Error(), "item.F") || !strings.Contains(err.Error(), "localize need") {
		t.Errorf("got %v", err)
	}
}
