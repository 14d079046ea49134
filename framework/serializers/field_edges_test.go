package serializers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
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

// edgesOnly314 are the DRF 3.14 answers the 3.14 level does not give,
// answering as DRF 3.18 does instead (docs/drf-differences.md,
// no-server-errors): a 500, or a value no JSON can render.
var edgesOnly314 = map[string]bool{
	// DRF 3.14 lets Python's OverflowError through (a 500).
	`duration json {"f": "-1000000000 00"}`: true, `duration json {"f": "1000000000 00"}`: true,
	`duration json {"f": "1000000000 days, 00:00:00"}`: true, `duration json {"f": "99999999999999"}`: true,
	`duration json {"f": 99999999999999}`:        true,
	`duration json {"f": "0 24000000000:00:00"}`: true,
	`duration json {"f": "P1000000000D"}`:        true,
	// DRF 3.14 took infinity and NaN (its JSONRenderer then a 500), and
	// let an int too large for a float through (a 500).
	`float json {"f": "inf"}`: true, `float json {"f": "-Infinity"}`: true, `float json {"f": "nan"}`: true,
	`float json {"f": 1e400}`:                               true,
	`float json {"f": 1` + strings.Repeat("0", 400) + `}`:   true,
	`float json {"f": "1` + strings.Repeat("0", 400) + `"}`: true,
}

// TestFieldEdgesAsDRF: the edge cases of issue 41 (DRF 3.18's
// tests/test_fields.py) answer as drf_field_edges.py's DRF does at each
// compatibility level: booleans in any case (3.14: as listed), a
// nullable checkbox missing from a form null (3.14: false), surrogates
// of a JSON body refused, offsets of 24 hours and datetimes beyond year
// 9999 refused, an int64 and a time.Duration bounded by their type's
// range, the duration's own overflow message, a multiple choice a set, a
// list's min_length and max_length, "f=" an empty dictionary in a form
// (3.14: any form), a float overflow's message and non-finite floats
// refused, a blank nullable decimal null.
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
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfFieldEdges
			drfsuite.RunDRF(t, compatibility, "testdata/drf_field_edges.py", nil, &drf)
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
				if level == "drf314" && edgesOnly314[key] {
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
				data, ctx := edgeInput(t, mode, input, compatibility)
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

// edgeInput reads input as the parsers do at a compatibility level, a
// form through FormParser, JSON through JSONParser (which keeps a lone
// surrogate escape, "\ud800", as Python's json.loads keeps it in a str).
func edgeInput(t *testing.T, mode, input string, level framework.Compatibility) (any, *serializers.Context) {
	t.Helper()
	hr := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(input))
	hr.Header.Set("Content-Type", "application/json")
	if mode == "form" {
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	r := request.New(hr, request.Config{Parsers: []request.Parser{framework.JSONParser{}, framework.FormParser{}},
		Compatibility: level})
	data, err := r.Data()
	if err != nil {
		t.Fatal(err)
	}
	return data, &serializers.Context{Request: r}
}

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
