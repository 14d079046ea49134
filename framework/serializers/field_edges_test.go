package serializers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
)

// The one-field serializers of testdata/drf_field_edges.py's FIELDS, each
// field "f".
type (
	edgeBool struct {
		F bool `json:"f"`
	}
	edgeNullBool struct {
		F *bool `json:"f"`
	}
	edgeChar struct {
		F string `json:"f"`
	}
	edgeDateTime struct {
		F time.Time `json:"f"`
	}
	edgeDuration struct {
		F time.Duration `json:"f"`
	}
	edgeMultiple struct {
		F []string `json:"f"`
	}
	edgeList struct {
		F []int `json:"f" drf:"min_length=2,max_length=3"`
	}
	edgeDict struct {
		F map[string]int `json:"f"`
	}
	edgeInt struct {
		F int64 `json:"f"`
	}
	edgeFloat struct {
		F float64 `json:"f"`
	}
	edgeNullDecimal struct {
		F *decimal.Decimal `json:"f" drf:"max_digits=5,decimal_places=2"`
	}
)

// edgeValidator validates data (with c) into a new item of one of those
// and answers as drf_field_edges.py does: {"value": f as rendered},
// {"absent": true} or {"errors": ...}.
type edgeValidator func(data any, c *serializers.Context) (string, error)

func edgeCase[T any](t *testing.T, opts ...serializers.Option) edgeValidator {
	t.Helper()
	s, err := serializers.New[T](opts...)
	if err != nil {
		t.Fatal(err)
	}
	return func(data any, c *serializers.Context) (string, error) {
		var obj T
		// A partial update of an item that is not there (nil or zero
		// values) cannot tell "absent" from a zero value: validate a
		// full update and look at whether "f" was in what was read.
		if err := s.Validate(data, &obj, false, c); err != nil {
			body := errorBody(err)
			var detail map[string]json.RawMessage
			if err := json.Unmarshal([]byte(strings.TrimPrefix(body, "400 ")), &detail); err != nil {
				return "", fmt.Errorf("%s: %v", body, err)
			}
			return `{"errors":` + string(detail["f"]) + `}`, nil
		}
		out, err := s.Data(&obj, c)
		if err != nil {
			return "", err
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(out, &m); err != nil {
			return "", err
		}
		return `{"value":` + string(m["f"]) + `}`, nil
	}
}

// drfFieldEdges is what drf_field_edges.py printed at one level: each case
// [field, "json" or "form", input, answer].
type drfFieldEdges struct {
	Versions map[string]string `json:"versions"`
	Cases    [][]json.RawMessage
}

// edgesOnly314 are the cases whose DRF 3.14 answer differs from DRF
// 3.18's; serializers have no compatibility level, and none of these
// fields is on the contract's routes, so they answer as DRF 3.18 does.
var edgesOnly314 = map[string]bool{
	`bool json {"f": "tRuE"}`: true, `bool json {"f": "oFf"}`: true, `bool json {"f": "yEs"}`: true,
	`bool json {"f": "nO"}`: true, `bool form f=tRuE`: true, `nullbool json {"f": "nULL"}`: true,
	`nullbool form `: true,
	// DRF 3.14 lets Python's OverflowError through (a 500).
	`duration json {"f": "-1000000000 00"}`: true, `duration json {"f": "1000000000 00"}`: true,
	`duration json {"f": "1000000000 days, 00:00:00"}`: true, `duration json {"f": "99999999999999"}`: true,
	`duration json {"f": 99999999999999}`:        true,
	`duration json {"f": "0 24000000000:00:00"}`: true,
	// DRF 3.14's parse_html_dict ignored the keys and gave {} always.
	`dict form `: true, `dict form f.a=1`: true, `dict form f=&f.a=1`: true,
	// DRF 3.14 took infinity and NaN, and let an int too large for a
	// float through (a 500).
	`float json {"f": "inf"}`: true, `float json {"f": "-Infinity"}`: true, `float json {"f": "nan"}`: true,
	`float json {"f": 1e400}`:                               true,
	`float json {"f": 1` + strings.Repeat("0", 400) + `}`:   true,
	`float json {"f": "1` + strings.Repeat("0", 400) + `"}`: true,
}

// edgesNotHeld are the DRF answers a Go field cannot give, each with why.
var edgesNotHeld = map[string]string{
	// An int64 holds 19 digits: the type's range is the error.
	`int json {"f": "123456789012345678901234567"}`: "an int64 cannot hold 27 digits",
	// A time.Duration holds ±106751 days (its wrong-format message).
	`duration json {"f": "999999999 23:59:59"}`:  "a time.Duration cannot hold 999999999 days",
	`duration json {"f": "-999999999 00:00:01"}`: "a time.Duration cannot hold 999999999 days",
}

// TestFieldEdgesAsDRF: the edge cases of issue 41 (DRF 3.18's
// tests/test_fields.py) answer as drf_field_edges.py's DRF does: booleans
// in any case, a nullable checkbox missing from a form null, surrogates
// refused, offsets of 24 hours and datetimes beyond year 9999 refused,
// the duration's own overflow message, a multiple choice a set, a list's
// min_length and max_length, "f=" an empty dictionary in a form, a float
// overflow's message and non-finite floats refused, a blank nullable
// decimal null.
func TestFieldEdgesAsDRF(t *testing.T) {
	fields := map[string]edgeValidator{
		"bool":        edgeCase[edgeBool](t),
		"nullbool":    edgeCase[edgeNullBool](t),
		"char":        edgeCase[edgeChar](t),
		"datetime":    edgeCase[edgeDateTime](t),
		"duration":    edgeCase[edgeDuration](t),
		"multiple":    edgeCase[edgeMultiple](t, serializers.Choices("f", []models.Choice{{Value: "a", Label: "a"}, {Value: "b", Label: "b"}})),
		"list":        edgeCase[edgeList](t),
		"dict":        edgeCase[edgeDict](t),
		"int":         edgeCase[edgeInt](t),
		"float":       edgeCase[edgeFloat](t),
		"nulldecimal": edgeCase[edgeNullDecimal](t),
	}
	for _, level := range []string{"drf314", "drf318"} {
		t.Run(level, func(t *testing.T) {
			b, err := os.ReadFile("testdata/drf_field_edges_" + level + ".json")
			if err != nil {
				t.Fatal(err)
			}
			var drf drfFieldEdges
			if err := json.Unmarshal(b, &drf); err != nil {
				t.Fatal(err)
			}
			if len(drf.Cases) == 0 {
				t.Fatal("no cases")
			}
			for _, c := range drf.Cases {
				var name, mode, input string
				for i, v := range []*string{&name, &mode, &input} {
					if err := json.Unmarshal(c[i], v); err != nil {
						t.Fatal(err)
					}
				}
				key := name + " " + mode + " " + input
				shown := key
				if len(shown) > 80 {
					shown = shown[:80] + "..."
				}
				if (level == "drf314" && edgesOnly314[key]) || edgesNotHeld[key] != "" {
					continue
				}
				var want bytes.Buffer
				if err := json.Compact(&want, c[3]); err != nil {
					t.Fatal(err)
				}
				if want.String() == `{"absent":true}` {
					// Validate sets nothing: the zero value is rendered.
					want.Reset()
					want.WriteString(absentAs[name])
				}
				data, ctx := edgeInput(t, mode, input)
				got, err := fields[name](data, ctx)
				if err != nil {
					t.Errorf("%s: %v", shown, err)
					continue
				}
				if !sameJSON(t, []byte(got), want.Bytes()) {
					t.Errorf("%s (DRF %s):\n got %s\nwant %s", shown, drf.Versions["rest_framework"], got, want.String())
				}
			}
		})
	}
}

// absentAs is what a field left unset renders as.
var absentAs = map[string]string{"dict": `{"value":{}}`}

// edgeInput reads input as the parsers would: a form through FormParser,
// JSON keeping a lone surrogate escape ("\ud800") as the WTF-8 bytes of
// its code point, as Python's json.loads keeps it in a str.
func edgeInput(t *testing.T, mode, input string) (any, *serializers.Context) {
	t.Helper()
	if mode == "form" {
		hr := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(input))
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r := request.New(hr, request.Config{Parsers: []request.Parser{framework.FormParser{}}})
		data, err := r.Data()
		if err != nil {
			t.Fatal(err)
		}
		return data, &serializers.Context{Request: r}
	}
	const mark = "@@surrogate:"
	text := loneSurrogate.ReplaceAllStringFunc(input, func(esc string) string {
		if pair := surrogatePair.FindString(esc); pair != "" {
			return esc
		}
		return mark + esc[2:] + "@@"
	})
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var data map[string]any
	if err := dec.Decode(&data); err != nil {
		t.Fatal(err)
	}
	for k, v := range data {
		if s, ok := v.(string); ok && strings.Contains(s, mark) {
			data[k] = markedSurrogate.ReplaceAllStringFunc(s, func(m string) string {
				cp, _ := strconv.ParseUint(m[len(mark):len(m)-2], 16, 16)
				return string([]byte{0xED, byte(0x80 | (cp>>6)&0x3F), byte(0x80 | cp&0x3F)})
			})
		}
	}
	return data, nil
}

var (
	// loneSurrogate matches a surrogate escape, or a high and low pair
	// (which surrogatePair then tells apart, and which stays as it is).
	loneSurrogate   = regexp.MustCompile(`(?i)\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}|\\ud[89a-f][0-9a-f]{2}`)
	surrogatePair   = regexp.MustCompile(`(?i)^\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}$`)
	markedSurrogate = regexp.MustCompile("@@surrogate:[0-9a-fA-F]{4}@@")
)

// TestMultipleChoiceRendersASet: a multiple choice holding a value twice
// renders it once, as DRF's MultipleChoiceField.to_representation makes a
// set of it (in the order held: a Python set's order is its hashes').
func TestMultipleChoiceRendersASet(t *testing.T) {
	s, err := serializers.New[edgeMultiple](serializers.Choices("f", []models.Choice{{Value: "a", Label: "a"}, {Value: "b", Label: "b"}}))
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Data(&edgeMultiple{F: []string{"b", "a", "b", "a"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), `{"f":["b","a"]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// A list that is no multiple choice keeps its repeats.
	ls, err := serializers.New[edgeList]()
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := ls.Data(&edgeList{F: []int{1, 1}}, nil); string(out) != `{"f":[1,1]}` {
		t.Errorf("list: got %s", out)
	}
}
