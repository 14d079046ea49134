package serializers_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// optionCase answers the questions a testdata/drf_*.py of field options
// asks of one field "f": the errors or the rendering of what an input
// validates to, and the rendering of a stored value (its JSON text).
type optionCase struct {
	validate func(data any, c *serializers.Context) string
	output   func(stored string, c *serializers.Context) string
}

func newOptionCase[T any](t *testing.T) optionCase {
	t.Helper()
	s, err := serializers.New[T]()
	if err != nil {
		t.Fatal(err)
	}
	render := func(obj *T, c *serializers.Context) string {
		out, err := s.Data(obj, c)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	return optionCase{
		validate: func(data any, c *serializers.Context) string {
			var obj T
			if err := s.ValidateNew(data, &obj, c); err != nil {
				return strings.TrimPrefix(errorBody(err), "400 ")
			}
			return render(&obj, c)
		},
		output: func(stored string, c *serializers.Context) string {
			var obj T
			if err := json.Unmarshal([]byte(`{"f":"`+stored+`"}`), &obj); err != nil {
				t.Fatal(err)
			}
			return render(&obj, c)
		},
	}
}

// checkOptionAnswers compares fields with what testdata/<script>.py
// prints at each level, run by drfsuite.RunDRF ({"versions", "fields":
// {name: {"inputs": [[input, {"validated"|"errors": ...}]], "outputs":
// [[stored, rendered]]}}}), byte for byte once compacted: an item ("name input" or
// "name stored S", or at one level alone "drf318: name input") listed in
// differ must answer otherwise, any other as DRF. extra checks the rest of the file at a level.
func checkOptionAnswers(t *testing.T, script string, fields map[string]optionCase, differ map[string]string,
	extra func(t *testing.T, raw json.RawMessage)) {
	compact := func(js json.RawMessage) string {
		var b bytes.Buffer
		if err := json.Compact(&b, js); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var raw json.RawMessage
			drfsuite.RunDRF(t, compatibility, "testdata/"+script+".py", nil, &raw)
			var drf struct {
				Versions map[string]string `json:"versions"`
				Fields   map[string]struct {
					Inputs  [][2]json.RawMessage `json:"inputs"`
					Outputs [][2]json.RawMessage `json:"outputs"`
				} `json:"fields"`
			}
			if err := json.Unmarshal(raw, &drf); err != nil {
				t.Fatal(err)
			}
			if len(drf.Fields) != len(fields) {
				t.Fatalf("%d fields, want %d", len(drf.Fields), len(fields))
			}
			if extra != nil {
				extra(t, raw)
			}
			check := func(item, got, want string) {
				t.Helper()
				why, differs := differ[item]
				if !differs {
					why, differs = differ[level+": "+item]
				}
				switch {
				case differs && got == want:
					t.Errorf("%s: answers as DRF %s, but it is listed as differing (%s)", item, drf.Versions["rest_framework"], why)
				case !differs && got != want:
					t.Errorf("%s (DRF %s): %s, want %s", item, drf.Versions["rest_framework"], got, want)
				}
			}
			for name, answers := range drf.Fields {
				fc, ok := fields[name]
				if !ok {
					t.Fatalf("no field %s", name)
				}
				for _, in := range answers.Inputs {
					var want map[string]json.RawMessage
					if err := json.Unmarshal(in[1], &want); err != nil {
						t.Fatal(err)
					}
					body := `{"f":` + compact(in[0]) + `}`
					data, c := edgeInput(t, "json", body, compatibility)
					w, ok := want["validated"]
					if !ok {
						w = want["errors"]
					}
					check(name+" "+compact(in[0]), fc.validate(data, c), compact(w))
				}
				for _, out := range answers.Outputs {
					var stored string
					if err := json.Unmarshal(out[0], &stored); err != nil {
						t.Fatal(err)
					}
					_, c := edgeInput(t, "json", "{}", compatibility)
					check(name+" stored "+stored, fc.output(stored, c), compact(out[1]))
				}
			}
		})
	}
}
