package serializers_test

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// The FilePathFields of testdata/drf_filepath.py's FIELDS, each field
// "f", of the tree testdata/filepath.
type (
	fpFiles struct {
		F string `json:"f" drf:"path=testdata/filepath"`
	}
	fpFilesSlash struct {
		F string `json:"f" drf:"path=testdata/filepath/"`
	}
	fpRequired struct {
		F string `json:"f" drf:"path=testdata/filepath,required"`
	}
	fpMatch struct {
		F string `json:"f" drf:"path=testdata/filepath,match=[.]txt$"`
	}
	fpFolders struct {
		F string `json:"f" drf:"path=testdata/filepath,allow_files=false,allow_folders"`
	}
	fpBoth struct {
		F string `json:"f" drf:"path=testdata/filepath,allow_folders=true"`
	}
	fpRecursive struct {
		F string `json:"f" drf:"path=testdata/filepath,recursive"`
	}
	fpRecursiveSlash struct {
		F string `json:"f" drf:"path=testdata/filepath/,recursive"`
	}
	fpRecursiveBoth struct {
		F string `json:"f" drf:"path=testdata/filepath,recursive,allow_folders,match=^[a-z]"`
	}
	fpRecursiveFolders struct {
		F string `json:"f" drf:"path=testdata/filepath,recursive,allow_files=false,allow_folders"`
	}
)

// fpField is one FilePathField: its OPTIONS description at a level, and
// its answer to an input.
type fpField struct {
	info   func(level framework.Compatibility) json.RawMessage
	answer func(t *testing.T, mode, input string, level framework.Compatibility) string
}

// fpCase is fpField of T: the answer is {"value": ...}, {"absent": true}
// (the field kept as it was) or {"errors": [...]}.
func fpCase[T any](t *testing.T) fpField {
	t.Helper()
	s, err := serializers.New[T]()
	if err != nil {
		t.Fatal(err)
	}
	const kept = "kept"
	return fpField{
		info: func(level framework.Compatibility) json.RawMessage {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(s.FieldInfoAt(level), &m); err != nil {
				t.Fatal(err)
			}
			return m["f"]
		},
		answer: func(t *testing.T, mode, input string, level framework.Compatibility) string {
			data, ctx := edgeInput(t, mode, input, level)
			var obj T
			f := reflect.ValueOf(&obj).Elem().Field(0)
			f.SetString(kept)
			if err := s.Validate(data, &obj, false, ctx); err != nil {
				var detail map[string]json.RawMessage
				if err := json.Unmarshal([]byte(strings.TrimPrefix(errorBody(err), "400 ")), &detail); err != nil {
					t.Fatal(err)
				}
				return `{"errors":` + string(detail["f"]) + `}`
			}
			v := f.String()
			if v == kept {
				return `{"absent": true}`
			}
			b, _ := json.Marshal(v)
			return `{"value":` + string(b) + `}`
		},
	}
}

// fpOnly318 are the answers of DRF 3.18 the 3.14 level gives too, where
// DRF 3.14's own differ: its FilePathField drops required=False (passing
// it to Django's field alone), so that it is required and takes a form's
// blank as the blank choice (docs/drf-differences.md).
func fpOnly318(mode, input string) bool {
	return mode == "json" && input == "{}" || mode == "form" && (input == "" || input == "f=")
}

// drfFilePath is what drf_filepath.py printed at one level.
type drfFilePath struct {
	Versions map[string]string `json:"versions"`
	Fields   map[string]struct {
		Choices [][2]string          `json:"choices"`
		Info    json.RawMessage      `json:"info"`
		Cases   [][3]json.RawMessage `json:"cases"`
	} `json:"fields"`
}

// TestFilePathFieldAsDRF: a string field of path= is DRF's FilePathField:
// its choices are the files and/or folders under the path (of a name
// match= searches, recursive= or not), read at setup as Django's
// forms.FilePathField reads them, with the blank choice of a field not
// required; OPTIONS lists them as a "choice" field's, and an input not
// among them is '"wrong_path" is not a valid path choice.', as
// drf_filepath.py's DRF answers at each level.
func TestFilePathFieldAsDRF(t *testing.T) {
	fields := map[string]fpField{
		"files":             fpCase[fpFiles](t),
		"files_slash":       fpCase[fpFilesSlash](t),
		"required":          fpCase[fpRequired](t),
		"match":             fpCase[fpMatch](t),
		"folders":           fpCase[fpFolders](t),
		"both":              fpCase[fpBoth](t),
		"recursive":         fpCase[fpRecursive](t),
		"recursive_slash":   fpCase[fpRecursiveSlash](t),
		"recursive_both":    fpCase[fpRecursiveBoth](t),
		"recursive_folders": fpCase[fpRecursiveFolders](t),
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfFilePath
			drfsuite.RunDRF(t, compatibility, "testdata/drf_filepath.py", nil, &drf)
			if len(drf.Fields) != len(fields) {
				t.Fatalf("%d fields, want %d", len(drf.Fields), len(fields))
			}
			for name, want := range drf.Fields {
				f := fields[name]
				info := want.Info
				if compatibility == framework.DRF314 && name != "required" {
					// DRF 3.14's required=False dropped (fpOnly318).
					info = json.RawMessage(strings.Replace(string(info), `"required": true`, `"required": false`, 1))
				}
				if got := f.info(compatibility); !sameJSON(t, got, info) {
					t.Errorf("%s OPTIONS (DRF %s):\n got %s\nwant %s", name, drf.Versions["rest_framework"], got, want.Info)
				}
				for _, c := range want.Cases {
					var mode, input string
					if err := json.Unmarshal(c[0], &mode); err != nil {
						t.Fatal(err)
					}
					if err := json.Unmarshal(c[1], &input); err != nil {
						t.Fatal(err)
					}
					if compatibility == framework.DRF314 && name != "required" && fpOnly318(mode, input) {
						continue
					}
					if got := f.answer(t, mode, input, compatibility); !sameJSON(t, []byte(got), c[2]) {
						t.Errorf("%s %s %s (DRF %s):\n got %s\nwant %s", name, mode, input, drf.Versions["rest_framework"], got, c[2])
					}
				}
			}
		})
	}
}

// fpModel is drf_model_filepath.py's FilePathModel: models.FilePathField
// of the tree testdata/filepath, required, blank, and null.
type fpModel struct {
	ID       int64   `db:"id" json:"-"`
	Template string  `db:"template" json:"template" model:"path=testdata/filepath"`
	Sheet    string  `db:"sheet" json:"sheet" model:"path=testdata/filepath,match=[.]txt$,recursive,blank"`
	Folder   *string `db:"folder" json:"folder" model:"path=testdata/filepath,allow_files=false,allow_folders"`
}

func (fpModel) Meta() models.Meta { return models.Meta{App: "tests", Name: "FilePathModel"} }

// fpModelRequired is fpModel's first two fields with drf_model_filepath.py's
// extra_kwargs required=True.
type fpModelRequired struct {
	ID       int64  `db:"id" json:"-"`
	Template string `db:"template" json:"template" model:"path=testdata/filepath" drf:"required"`
	Sheet    string `db:"sheet" json:"sheet" model:"path=testdata/filepath,match=[.]txt$,recursive,blank" drf:"required=true"`
}

func (fpModelRequired) Meta() models.Meta { return models.Meta{App: "tests", Name: "FilePathModel"} }

// drfModelFilePath is what drf_model_filepath.py printed at one level.
type drfModelFilePath struct {
	Versions map[string]string          `json:"versions"`
	Info     map[string]json.RawMessage `json:"info"`
	Required map[string]json.RawMessage `json:"info_required"`
	Inputs   [][2]json.RawMessage       `json:"inputs"`
}

// drfModelFilePathOutcome is DRF's outcome of one input.
type drfModelFilePathOutcome struct {
	Valid     bool                       `json:"valid"`
	Errors    map[string]json.RawMessage `json:"errors"`
	Validated json.RawMessage            `json:"validated"`
}

// TestModelFilePathFieldAsDRF: a model's FilePathField is DRF's
// FilePathField of its path, match, recursive, allow_files and
// allow_folders (ModelSerializer's build_standard_field), its choices
// starting with the blank one even when it is required (DRF passes no
// required=) unless the drf tag makes it required (extra_kwargs
// required=True, which DRF does pass on), as drf_model_filepath.py's DRF
// answers at each level. At
// the DRF 3.14 level a field that is not required answers as DRF 3.15
// and later do (fpOnly318).
func TestModelFilePathFieldAsDRF(t *testing.T) {
	s := serializers.MustNew[fpModel]()
	optional := []string{"sheet", "folder"}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfModelFilePath
			drfsuite.RunDRF(t, compatibility, "testdata/drf_model_filepath.py", nil, &drf)
			var info map[string]json.RawMessage
			if err := json.Unmarshal(s.FieldInfoAt(compatibility), &info); err != nil {
				t.Fatal(err)
			}
			if len(info) != len(drf.Info) {
				t.Errorf("OPTIONS has %d fields, DRF %d", len(info), len(drf.Info))
			}
			for name, want := range drf.Info {
				if compatibility == framework.DRF314 && slices.Contains(optional, name) {
					want = json.RawMessage(strings.Replace(string(want), `"required": true`, `"required": false`, 1))
				}
				if !sameJSON(t, info[name], want) {
					t.Errorf("%s OPTIONS (DRF %s):\n got %s\nwant %s", name, drf.Versions["rest_framework"], info[name], want)
				}
			}
			var required map[string]json.RawMessage
			if err := json.Unmarshal(serializers.MustNew[fpModelRequired]().FieldInfoAt(compatibility), &required); err != nil {
				t.Fatal(err)
			}
			if len(drf.Required) != 2 {
				t.Errorf("DRF's required fields: %s", drf.Required)
			}
			for name, want := range drf.Required {
				if !sameJSON(t, required[name], want) {
					t.Errorf("%s required, OPTIONS (DRF %s):\n got %s\nwant %s", name, drf.Versions["rest_framework"], required[name], want)
				}
			}
			if len(drf.Inputs) == 0 {
				t.Fatal("no inputs")
			}
			for _, in := range drf.Inputs {
				var want drfModelFilePathOutcome
				if err := json.Unmarshal(in[1], &want); err != nil {
					t.Fatal(err)
				}
				if compatibility == framework.DRF314 {
					for _, name := range optional {
						if e, ok := want.Errors[name]; ok && sameJSON(t, e, []byte(`["This field is required."]`)) {
							delete(want.Errors, name)
						}
					}
					if !want.Valid && len(want.Errors) == 0 {
						continue
					}
				}
				data, ctx := edgeInput(t, "json", string(in[0]), compatibility)
				var obj fpModel
				got := drfModelFilePathOutcome{Valid: true, Errors: map[string]json.RawMessage{}, Validated: json.RawMessage("null")}
				if err := s.ValidateNew(data, &obj, ctx); err != nil {
					got.Valid = false
					if err := json.Unmarshal([]byte(strings.TrimPrefix(errorBody(err), "400 ")), &got.Errors); err != nil {
						t.Fatal(err)
					}
				} else {
					got.Validated, _ = json.Marshal(map[string]any{"template": obj.Template, "sheet": obj.Sheet, "folder": obj.Folder})
				}
				gotJSON, _ := json.Marshal(got)
				wantJSON, _ := json.Marshal(want)
				if !sameJSON(t, gotJSON, wantJSON) {
					t.Errorf("%s (DRF %s):\n got %s\nwant %s", in[0], drf.Versions["rest_framework"], gotJSON, wantJSON)
				}
			}
		})
	}
}

// TestFilePathFieldRefused: a FilePathField's bad options fail at setup,
// naming the field: a path that is not there (Django's FileNotFoundError
// when its form field is built), neither files nor folders (Django's
// check fields.E140), a match that does not compile, an option off a
// string field or without a path.
func TestFilePathFieldRefused(t *testing.T) {
	type missing struct {
		F string `json:"f" drf:"path=testdata/no-such-folder"`
	}
	type missingRecursive struct {
		F string `json:"f" drf:"path=testdata/no-such-folder,recursive"`
	}
	type neither struct {
		F string `json:"f" drf:"path=testdata/filepath,allow_files=false"`
	}
	type badMatch struct {
		F string `json:"f" drf:"path=testdata/filepath,match=(unclosed"`
	}
	type onInt struct {
		F int `json:"f" drf:"path=testdata/filepath"`
	}
	type noPath struct {
		F string `json:"f" drf:"recursive"`
	}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"missing", newErr[missing](), "missing.F: open testdata/no-such-folder: no such file or directory"},
		{"missing, recursive", newErr[missingRecursive](), "missingRecursive.F: stat testdata/no-such-folder: no such file or directory"},
		{"neither", newErr[neither](), "neither.F: FilePathFields must have either 'allow_files' or 'allow_folders' set to True."},
		{"match", newErr[badMatch](), "badMatch.F: match=(unclosed: error parsing regexp"},
		{"int", newErr[onInt](), "onInt.F: bad drf tag option \"path=testdata/filepath\": path needs a string field, a FilePathField"},
		{"no path", newErr[noPath](), "noPath.F: a FilePathField needs path="},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, c.err, c.want)
		}
	}
	if _, err := os.Stat("testdata/no-such-folder"); err == nil {
		t.Fatal("testdata/no-such-folder is there")
	}
}

// TestInitialRefused: an initial= the field would refuse, or on a field
// of no single string, number or boolean, fails at setup naming it.
func TestInitialRefused(t *testing.T) {
	type notInt struct {
		F int `json:"f" drf:"initial=abc"`
	}
	type notChoice struct {
		F string `json:"f" drf:"path=testdata/filepath,required,initial=wrong_path"`
	}
	type list struct {
		F []int `json:"f" drf:"initial=1"`
	}
	type null struct {
		F int `json:"f" drf:"initial=None"`
	}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"int", newErr[notInt](), `notInt.F: initial "abc": A valid integer is required.`},
		{"choice", newErr[notChoice](), `notChoice.F: initial "wrong_path": "wrong_path" is not a valid path choice.`},
		{"list", newErr[list](), "list.F: an initial needs a field of one string, number or boolean"},
		{"null", newErr[null](), `null.F: initial "None": This field may not be null.`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, c.err, c.want)
		}
	}
}
